// A survey: after each response, the results: how many, each number's average, each choice's tally.
{
  const form = kit.$("#add-form");
  form.addEventListener("submit", () => {
    kit.$("#thanks").textContent = "Thank you! Your response is saved.";
  });
  kit.collection({
    onChange: (records) => {
      const lines = [`${records.length} ${records.length === 1 ? APP.noun.one : APP.noun.many}`];
      for (const field of APP.fields) {
        if (field.type === "number" || field.type === "money") {
          const values = records
            .map((record) => Number(record[field.key]))
            .filter((value) => !Number.isNaN(value) && value !== 0);
          if (values.length)
            lines.push(
              `${field.label}: average ${kit.format(field, values.reduce((a, b) => a + b, 0) / values.length)}`,
            );
        } else if (field.type === "select") {
          const tally = field.options.map(
            (option) => `${option} ${records.filter((record) => record[field.key] === option).length}`,
          );
          lines.push(`${field.label}: ${tally.join(", ")}`);
        }
      }
      kit.$("#results").replaceChildren(...lines.map((line) => kit.el("li", { text: line })));
    },
  });
}
