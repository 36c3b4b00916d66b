// What the built-in agent built, as data: the app's spec. The first run derives it from the prompt;
// it is written beside the app as app.json and embedded in app.js, and a follow-up run edits the
// spec and renders the app again. So a follow-up makes real changes (a field, a chart, a theme)
// rather than patching markup it would have to parse.
import type { SchemaAgent } from "../../../generated/schema.d.ts";
import { capitalize, singular, slug } from "./words.ts";

export type FieldType = "text" | "textarea" | "number" | "money" | "date" | "time" | "email" | "url" | "tel" | "select";

export interface Field {
  /** The form control's name and the record's key: ASCII, unique within the app. */
  readonly key: string;
  readonly label: string;
  readonly type: FieldType;
  /** A select's choices. */
  readonly options?: readonly string[];
}

export interface Section {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** An image of the project shown in the app's header: its path, as the page links it, and alt text. */
export interface Figure {
  readonly path: string;
  readonly alt: string;
}

export interface AppSpec {
  /** Bumped when the shape changes, so an older app.json is read or rebuilt knowingly. */
  readonly format: 1;
  readonly archetype: string;
  readonly agent: SchemaAgent;
  readonly title: string;
  /** A line under the title, from the prompt. */
  readonly tagline: string;
  /** What the app holds: "recipe" / "recipes". */
  readonly noun: { readonly one: string; readonly many: string };
  readonly fields: readonly Field[];
  readonly features: {
    readonly chart: boolean;
    readonly search: boolean;
    /** A field key, "created" (newest first) or null for the order of adding. */
    readonly sort: string | null;
  };
  readonly theme: { readonly scheme: "light" | "dark"; readonly accent: string | null };
  /** Sections of text below the app (the landing page keeps its own here too). */
  readonly sections: readonly Section[];
  /** Settings of one archetype (a timer's minutes, a board's columns, a converter's units). */
  readonly settings: Readonly<Record<string, string | number | readonly string[] | readonly number[]>>;
  /** Images attached to runs, shown below the title; absent when none (apps without stay as they were). */
  readonly images?: readonly Figure[];
}

// The field's type from its last word: "cooking time" is a number, "due date" a date.
const TYPES: ReadonlyArray<readonly [FieldType, string]> = [
  ["money", "amount price cost total budget salary income spend spent fee payment expense balance revenue"],
  [
    "number",
    "rating score count quantity qty pages calories minutes hours weight distance steps reps sets age servings time duration value points level temperature km miles kg height size number glasses cups",
  ],
  ["date", "date deadline due birthday day when dob"],
  ["email", "email e-mail mail"],
  ["url", "url link website homepage"],
  ["tel", "phone telephone mobile"],
  [
    "textarea",
    "notes note description details ingredients instructions comments comment summary review body content message feedback bio directions answer",
  ],
  ["select", "category type status priority genre kind mood tag group platform"],
];
const TYPE_OF = new Map(TYPES.flatMap(([type, words]) => words.split(" ").map((word) => [word, type] as const)));

const DEFAULT_OPTIONS: Record<string, readonly string[]> = {
  priority: ["Low", "Medium", "High"],
  status: ["To do", "In progress", "Done"],
  mood: ["Great", "Good", "Okay", "Bad"],
  genre: ["Fiction", "Non-fiction", "Poetry", "Other"],
  platform: ["Web", "iOS", "Android"],
};

/** A field named `label` ("cooking time", "Priority"), typed by its last word; `options` for a select. */
export function fieldNamed(label: string, options?: readonly string[]): Field {
  const words = label.trim().toLowerCase().split(/\s+/);
  const last = singular(words.at(-1) ?? "");
  const type = options?.length ? "select" : (TYPE_OF.get(last) ?? TYPE_OF.get(words.at(-1) ?? "") ?? "text");
  // A select is named for one choice: "categories like food and rent" is a Category.
  if (type === "select") words[words.length - 1] = last;
  const key = slug(words.join("-")).replace(/-/g, "_") || "field";
  const field: Field = { key, label: capitalize(words.join(" ")), type };
  if (type !== "select") return field;
  return { ...field, options: options?.length ? options : (DEFAULT_OPTIONS[last] ?? ["General", "Other"]) };
}

/** `fields` with `more`: one of the same key takes its place (the prompt's own choices win), others are added; at most `max`. */
export function mergeFields(fields: readonly Field[], more: readonly Field[], max = 8): Field[] {
  const merged = [...fields];
  for (const field of more) {
    const at = merged.findIndex((existing) => existing.key === field.key);
    if (at !== -1) merged[at] = field;
    else if (merged.length < max) merged.push(field);
  }
  return merged;
}

/** The fields a chart or a total adds up: money first, then numbers. */
export function numberField(spec: AppSpec): Field | undefined {
  return spec.fields.find((field) => field.type === "money") ?? spec.fields.find((field) => field.type === "number");
}

/** The spec as app.json, with the fingerprint of the files rendered from it (`rendered`). */
export function specJson(spec: AppSpec, rendered: string): string {
  return `${JSON.stringify({ ...spec, rendered }, null, 2)}\n`;
}

/**
 * app.json's spec and the fingerprint of the files rendered from it, or undefined when it is not
 * one this agent wrote (then the page is edited as a page).
 */
export function parseSpec(
  text: string | undefined,
  archetypes: ReadonlySet<string>,
): { spec: AppSpec; rendered: string | undefined } | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const spec = value as Partial<AppSpec> | null;
  if (!spec || typeof spec !== "object" || spec.format !== 1) return undefined;
  if (typeof spec.archetype !== "string" || !archetypes.has(spec.archetype)) return undefined;
  const valid =
    typeof spec.title === "string" &&
    typeof spec.tagline === "string" &&
    typeof spec.noun?.one === "string" &&
    typeof spec.noun.many === "string" &&
    Array.isArray(spec.fields) &&
    spec.fields.every(validField) &&
    typeof spec.features?.chart === "boolean" &&
    typeof spec.features.search === "boolean" &&
    (spec.features.sort === null || typeof spec.features.sort === "string") &&
    (spec.theme?.scheme === "light" || spec.theme?.scheme === "dark") &&
    (spec.theme.accent === null || typeof spec.theme.accent === "string") &&
    Array.isArray(spec.sections) &&
    spec.sections.every(
      (section: Partial<Section>) =>
        typeof section?.id === "string" && typeof section.title === "string" && typeof section.text === "string",
    ) &&
    typeof spec.settings === "object" &&
    spec.settings !== null &&
    (spec.images === undefined || (Array.isArray(spec.images) && spec.images.every(validFigure)));
  if (!valid) return undefined;
  const { rendered, ...rest } = spec as AppSpec & { rendered?: unknown };
  return { spec: rest, rendered: typeof rendered === "string" ? rendered : undefined };
}

const FIELD_TYPES = new Set<string>([
  "text",
  "textarea",
  "number",
  "money",
  "date",
  "time",
  "email",
  "url",
  "tel",
  "select",
]);

// A relative path of plain segments (no scheme, no leading `/`), so the page's `src` stays on the
// app's origin.
const FIGURE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9._-]+)*$/;

function validFigure(figure: Partial<Figure> | null): boolean {
  return (
    !!figure &&
    typeof figure.path === "string" &&
    figure.path.length <= 512 &&
    FIGURE_PATH.test(figure.path) &&
    typeof figure.alt === "string" &&
    figure.alt.length <= 200
  );
}

function validField(field: Partial<Field> | null): boolean {
  return (
    !!field &&
    typeof field.key === "string" &&
    /^[a-z0-9_]{1,40}$/.test(field.key) &&
    typeof field.label === "string" &&
    FIELD_TYPES.has(field.type ?? "") &&
    (field.options === undefined ||
      (Array.isArray(field.options) && field.options.every((option) => typeof option === "string")))
  );
}
