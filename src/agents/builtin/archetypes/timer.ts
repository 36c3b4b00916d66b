// A focus timer (pomodoro): work and break periods, start, pause and reset, and a log of what each
// session was for. The running timer survives a reload: it keeps its end time, not a countdown.
import { html } from "../../../html/template.ts";
import { clientScript, type Archetype, type EditKind } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";

export const timer: Archetype = {
  id: "timer",
  describe: "a focus timer",
  keywords: {
    timer: 5,
    pomodoro: 6,
    focus: 3,
    countdown: 4,
    stopwatch: 4,
    interval: 3,
    session: 2,
    break: 2,
    tomato: 3,
    concentrate: 3,
    deep: 1,
    productivity: 2,
  },
  templates: [],
  noun: { one: "session", many: "sessions" },
  ownNoun: true,
  fields: () => [{ key: "task", label: "What are you working on?", type: "text" }],
  refine: (spec, facts) => ({
    ...spec,
    settings: {
      ...spec.settings,
      focus: clamp(facts.numbers.get("minute") ?? facts.numbers.get("min") ?? 25, 1, 180),
      break: clamp(facts.numbers.get("break") ?? 5, 1, 60),
    },
  }),
  accepts: new Set<EditKind>(["theme", "rename", "section", "chart", "search", "sort"]),
  body: (spec) => html`<section class="panel timer" aria-labelledby="timer-heading">
<h2 id="timer-heading"><span id="mode">Focus</span> · ${String(spec.settings.focus)} minutes</h2>
<p id="clock" class="clock" role="timer" aria-live="off">${String(spec.settings.focus).padStart(2, "0")}:00</p>
<p id="current" class="muted">Add what you are working on, then start.</p>
<div class="controls">
<button type="button" id="start" class="button">Start</button>
<button type="button" id="pause" class="button secondary">Pause</button>
<button type="button" id="reset" class="button secondary">Reset</button>
</div>
</section>
<section class="panel">
${addForm(spec, { submit: "Add to the queue" })}
</section>
${recordList(spec, `Your ${spec.noun.many}`)}`,
  script: clientScript("timer"),
  css: `.timer { text-align: center; }
.clock { font-size: 4.5rem; font-weight: 700; margin: 0.5rem 0; font-variant-numeric: tabular-nums; }
.controls { display: flex; gap: 0.5rem; justify-content: center; }
`,
  abilities: (spec) =>
    `time ${String(spec.settings.focus)}-minute focus sessions with ${String(spec.settings.break)}-minute breaks, start, pause and reset them, and log what each was for`,
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
