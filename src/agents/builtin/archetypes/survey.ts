// A form or survey: people answer its questions; the results (answers, averages, tallies) and the
// responses are shown below it.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { fieldNamed } from "../spec.ts";

export const survey: Archetype = {
  id: "survey",
  describe: "a survey",
  keywords: {
    survey: 6,
    form: 3,
    poll: 5,
    feedback: 5,
    questionnaire: 6,
    rsvp: 6,
    signup: 2,
    registration: 4,
    register: 3,
    vote: 4,
    voting: 4,
    response: 3,
    responses: 3,
    application: 1,
    enquiry: 4,
    inquiry: 4,
    contact: 1,
    nps: 5,
  },
  templates: [],
  noun: { one: "response", many: "responses" },
  ownNoun: true,
  fields: (_noun, facts) =>
    facts.fields.length
      ? [{ key: "name", label: "Your name", type: "text" }]
      : [
          { key: "name", label: "Your name", type: "text" },
          { key: "email", label: "Email", type: "email" },
          { key: "rating", label: "Rating (1 to 5)", type: "number" },
          fieldNamed("comments"),
        ],
  refine: (spec, facts) => {
    const rsvp = facts.tokens.includes("rsvp");
    const fields =
      rsvp && !spec.fields.some((field) => field.key === "attending")
        ? [
            ...spec.fields,
            { key: "attending", label: "Attending", type: "select" as const, options: ["Yes", "No", "Maybe"] },
          ]
        : spec.fields;
    const charted = fields.some((field) => field.type === "select" || field.type === "number");
    return { ...spec, fields, features: { ...spec.features, chart: charted } };
  },
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel">
${addForm(spec, { legend: "Your answers", submit: "Send" })}
<p id="thanks" class="muted" role="status"></p>
</section>
<section class="panel" aria-labelledby="results-heading">
<h2 id="results-heading">Results</h2>
<ul id="results" class="results"></ul>
</section>
${recordList(spec, `All ${spec.noun.many}`)}`,
  script: clientScript("survey"),
  css: `.results { margin: 0; padding-left: 1.2rem; }
`,
  abilities: (spec) =>
    `collect ${spec.noun.many} to ${spec.fields.map((field) => field.label.toLowerCase()).join(", ")} and see the results as they come in`,
};
