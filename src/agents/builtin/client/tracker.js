// A tracker: each record has a checkbox that marks it done.
kit.collection({
  render: (record, actions) =>
    kit.row(record, actions, {
      className: record.done ? "done" : "",
      lead: kit.el("input", {
        type: "checkbox",
        class: "check",
        checked: record.done,
        "aria-label": `Done: ${record[APP.fields[0].key]}`,
        onchange: (event) => actions.update(record.id, { done: event.target.checked }),
      }),
    }),
  onChange: (records) => {
    const done = records.filter((record) => record.done).length;
    kit.$("#progress").textContent = records.length ? `${done} of ${records.length} done` : "";
  },
});
