// A focus timer: the state (mode, end time or time left) is saved, so a reload keeps it running.
{
  const state = kit.store("timer", { mode: "focus", endsAt: null, left: null });
  const minutes = { focus: Number(APP.settings.focus) || 25, break: Number(APP.settings.break) || 5 };
  let timer = state.load();
  let tick = null;
  let sessions;

  const left = () =>
    timer.endsAt ? Math.max(0, timer.endsAt - Date.now()) : (timer.left ?? minutes[timer.mode] * 60000);
  function show() {
    const seconds = Math.ceil(left() / 1000);
    kit.$("#clock").textContent =
      `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
    kit.$("#mode").textContent = timer.mode === "focus" ? "Focus" : "Break";
    kit.$("#start").disabled = Boolean(timer.endsAt);
    kit.$("#pause").disabled = !timer.endsAt;
    const next = sessions?.records().find((record) => !record.done);
    kit.$("#current").textContent = next
      ? `Now: ${next[APP.fields[0].key]}`
      : "Add what you are working on, then start.";
    if (timer.endsAt && left() === 0) finish();
  }
  function save() {
    state.save(timer);
    show();
  }
  function finish() {
    const next = sessions?.records().find((record) => !record.done);
    if (timer.mode === "focus" && next) sessions.update(next.id, { done: true, finished: kit.today() });
    timer = { mode: timer.mode === "focus" ? "break" : "focus", endsAt: null, left: null };
    save();
  }
  kit.$("#start").addEventListener("click", () => {
    timer = { ...timer, endsAt: Date.now() + left(), left: null };
    save();
  });
  kit.$("#pause").addEventListener("click", () => {
    timer = { ...timer, left: left(), endsAt: null };
    save();
  });
  kit.$("#reset").addEventListener("click", () => {
    timer = { mode: "focus", endsAt: null, left: null };
    save();
  });
  sessions = kit.collection({
    render: (record, actions) => kit.row(record, actions, { className: record.done ? "done" : "" }),
    onChange: () => show(),
  });
  tick = setInterval(show, 250);
  window.addEventListener("pagehide", () => clearInterval(tick));
  show();
}
