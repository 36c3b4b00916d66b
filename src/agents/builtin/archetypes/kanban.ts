// A kanban board: cards in columns (to do, in progress, done by default, or the prompt's own),
// added to the first column and moved left and right.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, toolbar } from "../render.ts";
import { a, capitalize } from "../words.ts";

export const kanban: Archetype = {
  id: "kanban",
  describe: "a kanban board",
  keywords: {
    kanban: 6,
    board: 3,
    sprint: 4,
    column: 2,
    backlog: 4,
    pipeline: 3,
    workflow: 3,
    scrum: 4,
    trello: 5,
    stage: 2,
    agile: 3,
    ticket: 3,
    roadmap: 3,
    swimlane: 4,
  },
  templates: [],
  noun: { one: "card", many: "cards" },
  fields: (noun) => [{ key: "title", label: capitalize(noun.one), type: "text" }],
  // The prompt's columns ("with columns Ideas, Drafts and Published") are the board's, not a field.
  refine: (spec, facts) => {
    const named = facts.fields.find((field) => field.key === "column")?.options;
    return {
      ...spec,
      fields: spec.fields.filter((field) => field.key !== "column"),
      settings: {
        ...spec.settings,
        columns: named && named.length >= 2 ? named.slice(0, 6) : ["To do", "In progress", "Done"],
      },
    };
  },
  accepts: RECORD_EDITS,
  body: (spec) => {
    const columns = spec.settings.columns as readonly string[];
    return html`<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
</section>
${spec.features.search || spec.features.sort ? html`<section class="panel">${toolbar(spec)}</section>` : ""}
<section class="board" id="board" aria-label="Board">
${columns.map(
  (column, i) => html`<section class="column panel" aria-labelledby="column-${String(i)}">
<h2 id="column-${String(i)}">${column} <span class="muted" id="column-count-${String(i)}"></span></h2>
<ul class="records column-cards" data-column="${String(i)}"></ul>
</section>
`,
)}</section>
<ul id="records" hidden></ul>
<p id="count" class="muted"></p>`;
  },
  script: clientScript("kanban"),
  css: `.board { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 1rem; }
.column-cards .record-main { flex-basis: 100%; }
.column-cards .record { flex-wrap: wrap; background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius); padding: 0.5rem; margin-bottom: 0.5rem; }
`,
  abilities: (spec) =>
    `add ${spec.noun.many} and move them across ${(spec.settings.columns as readonly string[]).join(", ")}`,
};
