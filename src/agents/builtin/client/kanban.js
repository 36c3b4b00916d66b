// A kanban board: each card keeps its column's index; ← and → move it.
{
  const columns = APP.settings.columns;
  const lists = [...document.querySelectorAll(".column-cards")];
  const move = (record, by, actions) =>
    actions.update(record.id, { column: Math.min(columns.length - 1, Math.max(0, (record.column ?? 0) + by)) });
  kit.collection({
    render: (record, actions) => {
      const at = record.column ?? 0;
      const name = record[APP.fields[0].key];
      const item = kit.row(record, actions, {
        extra: kit.el(
          "div",
          { class: "record-actions" },
          kit.el("button", {
            type: "button",
            class: "link",
            text: "←",
            disabled: at === 0,
            "aria-label": `Move ${name} to ${columns[at - 1] ?? ""}`,
            onclick: () => move(record, -1, actions),
          }),
          kit.el("button", {
            type: "button",
            class: "link",
            text: "→",
            disabled: at === columns.length - 1,
            "aria-label": `Move ${name} to ${columns[at + 1] ?? ""}`,
            onclick: () => move(record, 1, actions),
          }),
        ),
      });
      item.dataset.column = String(at);
      return item;
    },
    onChange: () => {
      // The collection draws into #records; the board spreads those rows over its columns.
      const rows = [...kit.$("#records").children];
      for (const list of lists) list.replaceChildren();
      for (const row of rows) {
        const column = Number(row.dataset.column ?? 0);
        (lists[column] ?? lists[0]).append(row);
      }
      lists.forEach((list, i) => {
        kit.$(`#column-count-${i}`).textContent = `(${list.children.length})`;
      });
    },
  });
}
