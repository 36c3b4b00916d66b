// Expenses or a budget: amounts in categories, their totals, what is left, and a chart by category.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { fieldNamed } from "../spec.ts";
import { a, withList } from "../words.ts";

export const expenses: Archetype = {
  id: "expenses",
  describe: "an expense tracker",
  keywords: {
    expense: 5,
    budget: 5,
    spending: 4,
    spend: 3,
    money: 3,
    cost: 2,
    finance: 4,
    finances: 4,
    receipt: 3,
    bill: 3,
    purchase: 3,
    salary: 2,
    income: 2,
    saving: 3,
    savings: 3,
    price: 1,
    trip: 1,
    split: 2,
    payment: 2,
    wallet: 3,
  },
  templates: [],
  noun: { one: "expense", many: "expenses" },
  fields: () => [
    { key: "description", label: "Description", type: "text" },
    { key: "amount", label: "Amount", type: "money" },
    fieldNamed("category", ["Food", "Rent", "Transport", "Fun", "Other"]),
    { key: "date", label: "Date", type: "date" },
  ],
  refine: (spec, facts) => {
    // "a monthly budget of 2000": the first number after "budget".
    const at = facts.tokens.indexOf("budget");
    const budget = at === -1 ? undefined : facts.tokens.slice(at + 1, at + 4).find((token) => /^\d{1,9}$/.test(token));
    return {
      ...spec,
      features: { ...spec.features, chart: true },
      settings: budget ? { ...spec.settings, budget: Number(budget) } : spec.settings,
    };
  },
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="stats" aria-label="Totals">
<div class="stat"><span class="muted">Total</span><span class="value" id="total">0</span></div>
<div class="stat"><span class="muted">This month</span><span class="value" id="month-total">0</span></div>
${spec.settings.budget ? html`<div class="stat"><span class="muted">Left of the budget</span><span class="value" id="budget-left">0</span></div>` : ""}
</section>
<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
</section>
${recordList(spec)}`,
  script: clientScript("expenses"),
  css: `#budget-left.over { color: #dc2626; }
`,
  abilities: (spec) =>
    `add, edit and delete ${spec.noun.many}${withList(spec.fields.slice(1).map((field) => field.label.toLowerCase()))}, see the totals${spec.settings.budget ? " and what is left of the budget" : ""}, and a chart by category`,
};
