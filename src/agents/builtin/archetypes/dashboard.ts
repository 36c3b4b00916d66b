// A dashboard charting entered data: values of a few metrics over time, each metric's latest and
// total on a card, and a chart by metric.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import type { PromptFacts } from "../prompt.ts";
import { capitalize, isStopWord } from "../words.ts";

export const dashboard: Archetype = {
  id: "dashboard",
  describe: "a dashboard",
  keywords: {
    dashboard: 6,
    metric: 5,
    kpi: 5,
    kpis: 5,
    analytics: 5,
    stats: 4,
    statistics: 4,
    chart: 2,
    charts: 2,
    graph: 2,
    graphs: 2,
    data: 2,
    sales: 3,
    revenue: 3,
    visitors: 3,
    report: 3,
    reports: 3,
    monitor: 3,
    monitoring: 3,
    overview: 2,
    trend: 3,
    trends: 3,
    weight: 1,
    signups: 3,
  },
  templates: ["dashboard"],
  noun: { one: "entry", many: "entries" },
  ownNoun: true,
  fields: (_noun, facts) => [
    { key: "metric", label: "Metric", type: "select", options: metricsOf(facts) },
    { key: "value", label: "Value", type: "number" },
    { key: "date", label: "Date", type: "date" },
  ],
  refine: (spec) => ({
    ...spec,
    // The metric names are the prompt's own fields when it lists them; they are options here, not fields.
    fields: spec.fields.filter((field) => ["metric", "value", "date"].includes(field.key) || field.type === "textarea"),
    features: { ...spec.features, chart: true },
  }),
  accepts: RECORD_EDITS,
  body: (spec) => {
    const metrics = spec.fields.find((field) => field.key === "metric")?.options ?? [];
    return html`<section class="stats" aria-label="Overview">
${metrics.map(
  (
    metric,
    i,
  ) => html`<div class="stat"><span class="muted">${metric}</span><span class="value" id="metric-${String(i)}">–</span><span class="muted" id="metric-total-${String(i)}"></span></div>
`,
)}</section>
<section class="panel">
${addForm(spec, { legend: "Add a value", submit: "Add" })}
</section>
${recordList(spec, `Recent ${spec.noun.many}`)}`;
  },
  script: clientScript("dashboard"),
  css: "",
  abilities: (spec) =>
    `enter values of ${(spec.fields.find((field) => field.key === "metric")?.options ?? []).join(", ")}, see the latest of each on a card and a chart of them`,
};

// "a dashboard of sales, signups and churn": the prompt's listed words, else its distinctive ones.
const GENERIC = new Set(
  "dashboard dashboards metric metrics kpi kpis analytics stats statistics chart charts graph graphs data overview report reports team company business store shop".split(
    " ",
  ),
);
function metricsOf(facts: PromptFacts): string[] {
  if (facts.fields.length >= 2) return facts.fields.slice(0, 5).map((field) => field.label);
  const words = facts.tokens.filter(
    (word) => word.length >= 4 && /^\p{L}+$/u.test(word) && !isStopWord(word) && !GENERIC.has(word),
  );
  const unique = [...new Set(words)].slice(0, 4).map(capitalize);
  return unique.length >= 2 ? unique : ["Visitors", "Sign-ups", "Revenue"];
}
