// Habits: each record keeps the days it was checked off; its streak counts back from today.
{
  const days = () => kit.lastDays(7);
  function streak(checks) {
    const done = new Set(checks);
    let count = 0;
    const day = new Date();
    // Today not yet checked off does not break the streak.
    if (!done.has(kit.isoDate(day))) day.setDate(day.getDate() - 1);
    while (done.has(kit.isoDate(day))) {
      count += 1;
      day.setDate(day.getDate() - 1);
    }
    return count;
  }
  const toggle = (record, day, actions) => {
    const checks = record.checks ?? [];
    actions.update(record.id, { checks: checks.includes(day) ? checks.filter((d) => d !== day) : [...checks, day] });
  };
  kit.collection({
    render: (record, actions) => {
      const checks = record.checks ?? [];
      const name = record[APP.fields[0].key];
      const dots = days().map((day) =>
        kit.el("button", {
          type: "button",
          class: checks.includes(day) ? "day checked" : "day",
          "aria-pressed": String(checks.includes(day)),
          "aria-label": `${name} on ${new Date(`${day}T00:00`).toLocaleDateString()}`,
          text: new Date(`${day}T00:00`).toLocaleDateString(undefined, { weekday: "narrow" }),
          onclick: () => toggle(record, day, actions),
        }),
      );
      const count = streak(checks);
      return kit.row(record, actions, {
        extra: [
          kit.el("div", { class: "days" }, dots),
          kit.el("span", { class: "streak", text: `${count}-day streak` }),
        ],
      });
    },
    onChange: (records) => {
      const today = kit.today();
      const done = records.filter((record) => (record.checks ?? []).includes(today)).length;
      kit.$("#today-summary").textContent = records.length ? `Today: ${done} of ${records.length} done.` : "";
    },
    chart: (records) => ({
      title: "Check-ins per day, last 7 days",
      series: days().map((day) => ({
        label: new Date(`${day}T00:00`).toLocaleDateString(undefined, { weekday: "short" }),
        value: records.filter((record) => (record.checks ?? []).includes(day)).length,
      })),
    }),
  });
}
