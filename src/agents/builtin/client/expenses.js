// Expenses: the totals (all, this month, left of the budget) above the list.
{
  const amount =
    APP.fields.find((field) => field.type === "money") ?? APP.fields.find((field) => field.type === "number");
  const dated = APP.fields.find((field) => field.type === "date");
  const sum = (records) => records.reduce((total, record) => total + (Number(record[amount?.key]) || 0), 0);
  const show = (value) => (amount ? kit.format(amount, value) : String(value));
  kit.collection({
    onChange: (records) => {
      const month = kit.today().slice(0, 7);
      const thisMonth = records.filter((record) =>
        String(dated ? record[dated.key] || record.created : record.created).startsWith(month),
      );
      kit.$("#total").textContent = show(sum(records));
      kit.$("#month-total").textContent = show(sum(thisMonth));
      const left = kit.$("#budget-left");
      if (left) {
        const remaining = Number(APP.settings.budget) - sum(thisMonth);
        left.textContent = show(remaining);
        left.classList.toggle("over", remaining < 0);
      }
    },
  });
}
