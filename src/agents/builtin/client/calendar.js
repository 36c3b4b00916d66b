// A calendar: the month grid shows each day's events; the list shows them by date.
{
  const dated = APP.fields.find((field) => field.type === "date");
  const shown = new Date();
  shown.setDate(1);
  let all = [];

  function drawMonth() {
    const month = kit.$("#month");
    kit.$("#month-heading").textContent = shown.toLocaleDateString(undefined, { month: "long", year: "numeric" });
    const cells = [];
    const monday = new Date(2024, 0, 1);
    for (let i = 0; i < 7; i += 1) {
      const day = new Date(monday);
      day.setDate(monday.getDate() + i);
      cells.push(
        kit.el("div", {
          class: "weekday",
          role: "columnheader",
          text: day.toLocaleDateString(undefined, { weekday: "short" }),
        }),
      );
    }
    const offset = (shown.getDay() + 6) % 7;
    for (let i = 0; i < offset; i += 1) cells.push(kit.el("div", { "aria-hidden": "true" }));
    const day = new Date(shown);
    const today = kit.today();
    while (day.getMonth() === shown.getMonth()) {
      const iso = kit.isoDate(day);
      const events = all.filter((record) => dated && record[dated.key] === iso);
      cells.push(
        kit.el(
          "div",
          {
            class: iso === today ? "day today" : "day",
            role: "gridcell",
            "aria-label": `${day.toLocaleDateString()}: ${events.length} ${events.length === 1 ? APP.noun.one : APP.noun.many}`,
          },
          kit.el("span", { text: String(day.getDate()) }),
          events.map((record) => kit.el("span", { class: "dot", text: `• ${record[APP.fields[0].key]}` })),
        ),
      );
      day.setDate(day.getDate() + 1);
    }
    month.replaceChildren(...cells);
  }
  kit.$("#previous-month").addEventListener("click", () => {
    shown.setMonth(shown.getMonth() - 1);
    drawMonth();
  });
  kit.$("#next-month").addEventListener("click", () => {
    shown.setMonth(shown.getMonth() + 1);
    drawMonth();
  });
  kit.collection({
    onChange: (records) => {
      all = records;
      drawMonth();
    },
  });
}
