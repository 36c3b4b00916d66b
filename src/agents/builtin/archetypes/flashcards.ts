// Flashcards or a quiz: cards with a question and an answer, and a study round that keeps score.
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { a } from "../words.ts";

export const flashcards: Archetype = {
  id: "flashcards",
  describe: "a flashcard quiz",
  keywords: {
    flashcard: 6,
    flashcards: 6,
    quiz: 5,
    study: 3,
    vocabulary: 4,
    flash: 3,
    card: 1,
    learn: 2,
    learning: 2,
    trivia: 4,
    exam: 3,
    revise: 3,
    revision: 3,
    memorize: 4,
    memorise: 4,
    question: 2,
    answer: 2,
    language: 2,
    words: 1,
    test: 1,
  },
  templates: [],
  noun: { one: "card", many: "cards" },
  fields: () => [
    { key: "question", label: "Question", type: "text" },
    { key: "answer", label: "Answer", type: "text" },
  ],
  accepts: RECORD_EDITS,
  body: (spec) => html`<section class="panel study" aria-labelledby="study-heading">
<h2 id="study-heading">Study</h2>
<p id="card-front" class="card-face">Add ${a(spec.noun.one)} to start.</p>
<p id="card-back" class="card-face answer" hidden></p>
<div class="controls">
<button type="button" id="flip" class="button">Show answer</button>
<button type="button" id="knew" class="button secondary" hidden>I knew it</button>
<button type="button" id="again" class="button secondary" hidden>Not yet</button>
</div>
<p id="score" class="muted" aria-live="polite"></p>
</section>
<section class="panel">
${addForm(spec, { legend: `Add ${a(spec.noun.one)}` })}
</section>
${recordList(spec)}`,
  script: clientScript("flashcards"),
  css: `.card-face { font-size: 1.4rem; margin: 0.5rem 0; }
.answer { color: var(--accent); font-weight: 700; }
.controls { display: flex; gap: 0.5rem; flex-wrap: wrap; }
`,
  abilities: (spec) => `add ${spec.noun.many} with a question and an answer, study them one at a time and keep score`,
};
