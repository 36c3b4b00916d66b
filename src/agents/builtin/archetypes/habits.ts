// Habits: a check-in a day for each habit, its streak, and the last seven days at a glance.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { a, capitalize } from "../words.ts";

export const habits: Archetype = {
  id: "habits",
  describe: "a habit tracker",
  keywords: {
    habit: 5,
    streak: 5,
    routine: 4,
    daily: 2,
    meditation: 3,
    meditate: 3,
    workout: 2,
    exercise: 2,
    water: 2,
    "check-in": 4,
    checkin: 4,
    goal: 2,
    sleep: 2,
    journaling: 2,
    stretching: 3,
    vitamins: 3,
    floss: 3,
    practice: 2,
  },
  templates: [],
  noun: { one: "habit", many: "habits" },
  fields: (noun) => [{ key: "name", label: capitalize(noun.one), type: "text" }],
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
<p id="today-summary" class="muted"></p>
</section>
${recordList(spec)}`,
  script: clientScript("habits"),
  css: `.days { display: flex; gap: 0.25rem; }
.day { width: 2rem; height: 2rem; border-radius: 50%; border: 1px solid var(--border); background: var(--bg); color: var(--muted); font: inherit; font-size: 0.75rem; cursor: pointer; }
.day.checked { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.streak { font-weight: 700; white-space: nowrap; }
`,
  abilities: (spec) =>
    `add ${spec.noun.many}, check them off each day, and see each one's streak and its last seven days`,
};
