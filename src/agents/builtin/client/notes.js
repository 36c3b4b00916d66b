// Notes: the body shown in full under the title, with the day it was written.
{
  const body = APP.fields.find((field) => field.type === "textarea");
  kit.collection({
    render: (record, actions) => {
      const rest = APP.fields.slice(1).filter((field) => field !== body);
      const item = kit.row(record, actions, {});
      const main = item.querySelector(".record-main");
      main.querySelector(".muted").textContent = [
        kit.details(record, rest),
        new Date(`${record.created}T00:00`).toLocaleDateString(),
      ]
        .filter(Boolean)
        .join(" · ");
      if (body && record[body.key]) main.append(kit.el("p", { class: "note-body", text: record[body.key] }));
      return item;
    },
  });
}
