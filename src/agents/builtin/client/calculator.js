// A converter or calculator: each result is a record of the history. Expressions are parsed here
// (the page's CSP allows no eval): numbers, + - * / ^ %, brackets and unary minus.
{
  const { mode, units = [], factors = [], offsets = [] } = APP.settings;

  function convert(value, from, to) {
    const a = units.indexOf(from);
    const b = units.indexOf(to);
    const base = (value + offsets[a]) * factors[a];
    return base / factors[b] - offsets[b];
  }

  function evaluate(text) {
    const tokens = text.match(/\d+(?:\.\d+)?|\.\d+|[-+*/^%()×÷]/g) ?? [];
    if (tokens.join("") !== text.replace(/\s+/g, "")) throw new Error("Use numbers, + - * / ^ % and brackets.");
    let at = 0;
    const peek = () => tokens[at];
    const take = () => tokens[at++];
    function primary() {
      const token = take();
      if (token === "-") return -primary();
      if (token === "+") return primary();
      if (token === "(") {
        const value = sum();
        if (take() !== ")") throw new Error("A bracket is not closed.");
        return value;
      }
      const value = Number(token);
      if (token === undefined || Number.isNaN(value)) throw new Error("A number is missing.");
      return peek() === "%" ? (take(), value / 100) : value;
    }
    function power() {
      const base = primary();
      return peek() === "^" ? (take(), base ** power()) : base;
    }
    function product() {
      let value = power();
      while (["*", "/", "×", "÷"].includes(peek())) {
        const op = take();
        const right = power();
        value = op === "*" || op === "×" ? value * right : value / right;
      }
      return value;
    }
    function sum() {
      let value = product();
      while (peek() === "+" || peek() === "-") value = take() === "+" ? value + product() : value - product();
      return value;
    }
    const value = sum();
    if (at !== tokens.length) throw new Error("Something is left over at the end.");
    if (!Number.isFinite(value)) throw new Error("The result is not a finite number.");
    return value;
  }

  const round = (value) => Number(value.toPrecision(10)).toLocaleString(undefined, { maximumFractionDigits: 6 });
  const describe = (record) => {
    if (mode === "calculate") {
      try {
        return `${record.expression} = ${round(evaluate(record.expression))}`;
      } catch {
        return record.expression;
      }
    }
    return `${round(Number(record.value))} ${record.from} = ${round(convert(Number(record.value), record.from, record.to))} ${record.to}`;
  };

  const answer = kit.$("#answer");
  kit.collection({
    render: (record, list) => {
      const item = kit.row(record, list, {});
      item.querySelector("strong").textContent = describe(record);
      item.querySelector(".record-main .muted").textContent = new Date(`${record.created}T00:00`).toLocaleDateString();
      return item;
    },
  });
  // Checked before the collection saves it: a calculation that does not parse is explained, not kept.
  kit.$("#add-form").addEventListener(
    "submit",
    (event) => {
      const form = event.currentTarget;
      const record = kit.readForm(form, APP.fields);
      if (!record) return;
      try {
        if (mode === "calculate") evaluate(record.expression);
        else if (record.value === "") throw new Error("Enter a value to convert.");
        answer.classList.remove("error");
        answer.textContent = describe(record);
      } catch (error) {
        event.stopImmediatePropagation();
        event.preventDefault();
        answer.classList.add("error");
        answer.textContent = error.message;
      }
    },
    { capture: true },
  );
}
