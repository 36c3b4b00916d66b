// Events or a calendar: a month at a glance with the days that have events, and what comes next.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { a, capitalize } from "../words.ts";

export const calendar: Archetype = {
  id: "calendar",
  describe: "a calendar",
  keywords: {
    calendar: 6,
    event: 4,
    schedule: 4,
    appointment: 5,
    meeting: 4,
    booking: 4,
    agenda: 4,
    conference: 3,
    birthday: 3,
    deadline: 3,
    reservation: 4,
    class: 1,
    lesson: 2,
    shift: 3,
    party: 2,
    wedding: 2,
    concert: 3,
    gig: 3,
    meetup: 4,
    rota: 4,
    planner: 1,
    week: 1,
    month: 2,
  },
  templates: [],
  noun: { one: "event", many: "events" },
  fields: (noun) => [
    { key: "title", label: capitalize(noun.one), type: "text" },
    { key: "date", label: "Date", type: "date" },
    { key: "time", label: "Time", type: "time" },
    { key: "place", label: "Where", type: "text" },
  ],
  refine: (spec) => ({ ...spec, features: { ...spec.features, sort: "date" } }),
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
</section>
<section class="panel" aria-labelledby="month-heading">
<div class="month-bar">
<button type="button" id="previous-month" class="link" aria-label="Previous month">←</button>
<h2 id="month-heading">This month</h2>
<button type="button" id="next-month" class="link" aria-label="Next month">→</button>
</div>
<div id="month" class="month" role="grid" aria-labelledby="month-heading"></div>
</section>
${recordList(spec, `Upcoming ${spec.noun.many}`)}`,
  script: clientScript("calendar"),
  css: `.month-bar { display: flex; align-items: center; justify-content: space-between; }
.month { display: grid; grid-template-columns: repeat(7, 1fr); gap: 0.25rem; }
.month .weekday { text-align: center; font-size: 0.8rem; color: var(--muted); }
.month .day { min-height: 3.2rem; padding: 0.25rem; border: 1px solid var(--border); border-radius: var(--radius); font-size: 0.85rem; overflow: hidden; }
.month .day.today { border-color: var(--accent); }
.month .day .dot { display: block; color: var(--accent); font-size: 0.75rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`,
  abilities: (spec) =>
    `add ${spec.noun.many} with a date, time and place, see them on a month calendar, and list what comes next`,
};
