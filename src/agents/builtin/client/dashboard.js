// A dashboard: each metric's card shows its latest value and its total.
{
  const metric = APP.fields.find((field) => field.key === "metric");
  const value = APP.fields.find((field) => field.key === "value");
  const dated = APP.fields.find((field) => field.type === "date");
  const when = (record) => (dated && record[dated.key]) || record.created;
  kit.collection({
    onChange: (records) => {
      metric.options.forEach((name, i) => {
        const of = records.filter((record) => record.metric === name).sort((a, b) => when(a).localeCompare(when(b)));
        const latest = of.at(-1);
        kit.$(`#metric-${i}`).textContent = latest ? kit.format(value, latest.value) : "–";
        const total = of.reduce((sum, record) => sum + (Number(record.value) || 0), 0);
        kit.$(`#metric-total-${i}`).textContent = of.length
          ? `${of.length} values, total ${kit.format(value, total)}`
          : "No values yet";
      });
    },
  });
}
