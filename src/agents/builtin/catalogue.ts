// The built-in agent's catalogue: every kind of app it can build, and the scorer that picks one
// for a prompt. Each archetype lists the words that point to it; a prompt's score for an archetype
// is the sum of its words' weights (half for a word in a list of fields: "plants with watering
// notes" is not a notes app), plus a lean towards the project's template. Readable by tests:
// `scoreArchetypes` shows why a prompt became what it became.
import type { SchemaTemplate } from "../../../generated/schema.d.ts";
import type { Archetype } from "./archetype.ts";
import { api } from "./archetypes/api.ts";
import { calculator } from "./archetypes/calculator.ts";
import { calendar } from "./archetypes/calendar.ts";
import { dashboard } from "./archetypes/dashboard.ts";
import { expenses } from "./archetypes/expenses.ts";
import { flashcards } from "./archetypes/flashcards.ts";
import { habits } from "./archetypes/habits.ts";
import { kanban } from "./archetypes/kanban.ts";
import { landing } from "./archetypes/landing.ts";
import { notes } from "./archetypes/notes.ts";
import { survey } from "./archetypes/survey.ts";
import { timer } from "./archetypes/timer.ts";
import { tracker } from "./archetypes/tracker.ts";
import { FIELD_LEADS } from "./prompt.ts";
import { singular, tokens } from "./words.ts";

/** In order of preference when scores tie; the tracker is the fallback. */
export const ARCHETYPES: readonly Archetype[] = [
  tracker,
  expenses,
  habits,
  notes,
  timer,
  flashcards,
  kanban,
  calculator,
  calendar,
  dashboard,
  survey,
  landing,
  api,
];

const BY_ID = new Map(ARCHETYPES.map((archetype) => [archetype.id, archetype]));
export const ARCHETYPE_IDS: ReadonlySet<string> = new Set(BY_ID.keys());

export function archetypeById(id: string): Archetype | undefined {
  return BY_ID.get(id);
}

// A template is a strong hint: a landing-page project stays a landing page unless the prompt
// clearly asks for something else.
const TEMPLATE_LEAN = 5;

export interface Score {
  readonly id: string;
  readonly score: number;
  /** The prompt's words that counted, for reading a choice. */
  readonly words: readonly string[];
}

/** Every archetype's score for a prompt and template, best first (ties in catalogue order). */
export function scoreArchetypes(prompt: string, template: SchemaTemplate): Score[] {
  const share = new Map<string, number>();
  let inList = false;
  for (const word of tokens(prompt.slice(0, 4000))) {
    if (FIELD_LEADS.has(word)) inList = true;
    else if (".;!?".includes(word)) inList = false;
    share.set(word, Math.max(share.get(word) ?? 0, inList ? 0.5 : 1));
  }
  const scores = ARCHETYPES.map((archetype, order) => {
    let score = archetype.templates.includes(template) ? TEMPLATE_LEAN : 0;
    const counted: string[] = [];
    for (const [word, part] of share) {
      const weight = archetype.keywords[word] ?? archetype.keywords[singular(word)];
      if (weight) {
        score += weight * part;
        counted.push(word);
      }
    }
    return { id: archetype.id, score, words: counted, order };
  });
  scores.sort((a, b) => b.score - a.score || a.order - b.order);
  return scores.map(({ id, score, words: counted }) => ({ id, score, words: counted }));
}

/** The archetype a first run builds. */
export function chooseArchetype(prompt: string, template: SchemaTemplate): Archetype {
  return BY_ID.get(scoreArchetypes(prompt, template)[0]!.id)!;
}
