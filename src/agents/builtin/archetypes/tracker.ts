// A list or tracker: add, edit, complete and delete things (tasks, books, plants, recipes …).
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { fieldNamed } from "../spec.ts";
import { a, capitalize, withList } from "../words.ts";

export const tracker: Archetype = {
  id: "tracker",
  describe: "a tracker",
  keywords: {
    todo: 4,
    "to-do": 4,
    task: 3,
    checklist: 4,
    list: 2,
    tracker: 1,
    track: 1,
    inventory: 3,
    collection: 2,
    reading: 2,
    book: 2,
    shopping: 3,
    grocery: 3,
    groceries: 3,
    wishlist: 3,
    movie: 2,
    watchlist: 3,
    errand: 3,
    chore: 3,
    plant: 2,
    recipe: 2,
    contact: 2,
    crm: 2,
    lead: 1,
    client: 1,
    bug: 2,
    packing: 3,
    gift: 2,
    game: 1,
  },
  // First in the catalogue: what a prompt that points nowhere in particular gets.
  templates: [],
  noun: { one: "item", many: "items" },
  fields: (noun, facts) => [
    { key: "name", label: capitalize(noun.one), type: "text" },
    ...(facts.fields.length === 0 ? [fieldNamed("notes")] : []),
  ],
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
<p id="progress" class="muted"></p>
</section>
${recordList(spec)}`,
  script: clientScript("tracker"),
  css: `.check { width: 1.2rem; height: 1.2rem; accent-color: var(--accent); }
`,
  abilities: (spec) =>
    `add, edit, complete and delete ${spec.noun.many}${withList(spec.fields.slice(1).map((field) => field.label.toLowerCase()))}`,
};
