// An archetype is one kind of app the built-in agent can build (a tracker, an expense log, a
// kanban board …): its markup, its script, its style, its default fields and the follow-up edits it
// accepts. catalogue.ts lists them and chooses one for a prompt.
import { readFileSync } from "node:fs";
import type { SchemaAgent, SchemaTemplate } from "../../../generated/schema.d.ts";
import type { Html } from "../../html/template.ts";
import type { PromptFacts } from "./prompt.ts";
import { mergeFields, type AppSpec, type Field } from "./spec.ts";
import { singular, truncate } from "./words.ts";

/** The follow-up requests the agent understands (requests.ts); an archetype accepts some of them. */
export type EditKind = "theme" | "rename" | "section" | "chart" | "search" | "sort" | "field";

export interface Archetype {
  readonly id: string;
  /** What it builds, for summaries: "an expense tracker". */
  readonly describe: string;
  /** Words that point to it in a prompt, each with its weight (the scorer adds them up). */
  readonly keywords: Readonly<Record<string, number>>;
  /** Project templates that lean towards it. */
  readonly templates: readonly SchemaTemplate[];
  /** What it holds when the prompt does not say, or always when `ownNoun` (a dashboard's entries). */
  readonly noun: { readonly one: string; readonly many: string };
  readonly ownNoun?: boolean;
  /** Its fields before the prompt's own: the first is the one every record is named by. */
  fields(noun: AppSpec["noun"], facts: PromptFacts): readonly Field[];
  /** The archetype's own touches to a first run's spec (settings, features on from the start). */
  refine?(spec: AppSpec, facts: PromptFacts): AppSpec;
  readonly accepts: ReadonlySet<EditKind>;
  body(spec: AppSpec): Html;
  /** Its browser script (client/<id>.js), run after the shared runtime. */
  readonly script: string;
  readonly css: string;
  /** What the app lets people do, for the first run's summary. */
  abilities(spec: AppSpec): string;
}

/** An archetype's browser script, from client/<name>.js. */
export function clientScript(name: string): string {
  return readFileSync(new URL(`client/${name}.js`, import.meta.url), "utf8");
}

/** The edits every archetype with records accepts. */
export const RECORD_EDITS: ReadonlySet<EditKind> = new Set([
  "theme",
  "rename",
  "section",
  "chart",
  "search",
  "sort",
  "field",
]);

export interface Project {
  readonly name: string;
  readonly agent: SchemaAgent;
  readonly prompt: string;
}

/** A first run's spec: the archetype's shape filled with the prompt's title, nouns and fields. */
export function firstSpec(archetype: Archetype, project: Project, facts: PromptFacts): AppSpec {
  const noun = (!archetype.ownNoun && facts.noun) || archetype.noun;
  const spec: AppSpec = {
    format: 1,
    archetype: archetype.id,
    agent: project.agent,
    title: truncate(project.name.trim() || "My app", 100),
    tagline: taglineOf(project.prompt),
    noun,
    fields: mergeFields(
      archetype.fields(noun, facts),
      facts.fields.filter((field) => !isOwnWord(archetype, field)),
    ),
    features: { chart: false, search: false, sort: null },
    theme: { scheme: "light", accent: null },
    sections: [],
    settings: {},
  };
  return archetype.refine ? archetype.refine(spec, facts) : spec;
}

/** "A habit tracker with streaks": streaks are what the archetype does, not a field to fill in. */
function isOwnWord(archetype: Archetype, field: Field): boolean {
  const last = field.label.toLowerCase().split(" ").at(-1) ?? "";
  return (archetype.keywords[last] ?? archetype.keywords[singular(last)] ?? 0) >= 3;
}

/** The prompt's first sentence, cut to a line. */
function taglineOf(prompt: string): string {
  const text = prompt.trim().replace(/\s+/g, " ");
  const end = text.search(/[.!?](\s|$)/);
  return truncate(end === -1 ? text : text.slice(0, end + 1), 160);
}
