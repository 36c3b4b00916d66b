// Notes or a journal: titled notes, written, edited, searched and deleted.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { a, capitalize } from "../words.ts";

export const notes: Archetype = {
  id: "notes",
  describe: "a notes app",
  keywords: {
    note: 5,
    notes: 5,
    journal: 4,
    diary: 4,
    memo: 3,
    idea: 3,
    writing: 2,
    markdown: 2,
    snippet: 3,
    notebook: 4,
    thought: 3,
    quote: 3,
    bookmark: 2,
    wiki: 3,
    entry: 1,
  },
  templates: [],
  noun: { one: "note", many: "notes" },
  fields: (noun) => [
    { key: "title", label: "Title", type: "text" },
    { key: "body", label: capitalize(noun.one), type: "textarea" },
  ],
  refine: (spec) => ({ ...spec, features: { ...spec.features, search: true, sort: "created" } }),
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel">
${addForm(spec, { legend: `Write ${a(spec.noun.one)}`, submit: `Save ${spec.noun.one}` })}
</section>
${recordList(spec)}`,
  script: clientScript("notes"),
  css: `.note-body { white-space: pre-wrap; margin: 0.25rem 0 0; }
`,
  abilities: (spec) => `write, edit, search and delete ${spec.noun.many}`,
};
