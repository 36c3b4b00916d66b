// A follow-up prompt read as requests the built-in agent knows (docs/agents.md lists them): a
// theme or colour, renaming, a section added or removed, a chart, search, sorting, a field added or
// removed. Each clause of the prompt ("switch to dark mode and add a chart") is one request; the
// spec is changed for those the archetype accepts, and the rest are reported as not done.
import { ACCENTS } from "./render.ts";
import type { Archetype, EditKind } from "./archetype.ts";
import { fieldNamed, type AppSpec, type Field, type Section } from "./spec.ts";
import { capitalize, singular, slug, truncate } from "./words.ts";

export interface Applied {
  readonly spec: AppSpec;
  /** What was changed, as phrases: "switched to the dark theme". */
  readonly done: readonly string[];
  /** Requests not carried out, each with why. */
  readonly notDone: readonly string[];
}

interface Word {
  readonly text: string;
  readonly lower: string;
}

const CLAUSE_BREAKS = new Set([".", ";", "!", "?", ",", "and", "then", "also", "plus"]);
const VERBS = new Set(
  "add remove delete drop hide sort order make switch use change rename call show include track put give let".split(
    " ",
  ),
);
const FILLER = new Set([
  "a",
  "an",
  "the",
  "new",
  "some",
  "my",
  "its",
  "their",
  "please",
  "called",
  "named",
  "for",
  "of",
]);
const IMAGE_WORDS = [
  "image",
  "images",
  "photo",
  "photos",
  "picture",
  "pictures",
  "logo",
  "figure",
  "illustration",
  "screenshot",
  "banner",
  "attached",
  "attachment",
];
const KIND_NAMES: Record<EditKind, string> = {
  theme: "a theme",
  rename: "renaming",
  section: "sections",
  chart: "chart",
  search: "search",
  sort: "sorting",
  field: "new fields",
};

/**
 * The spec with the prompt's requests carried out. With `imagesAttached`, a clause about an image
 * ("put this photo in the header") is the attached image's, placed by the caller, not a request here.
 */
export function applyRequests(
  prompt: string,
  spec: AppSpec,
  archetype: Archetype,
  options: { imagesAttached?: boolean } = {},
): Applied {
  let current = spec;
  const done: string[] = [];
  const notDone: string[] = [];
  for (const clause of clauses(prompt)) {
    const request = understand(clause, current);
    const quoted = `"${truncate(clause.map((word) => word.text).join(" "), 80)}"`;
    if (!request && options.imagesAttached && has(clause, ...IMAGE_WORDS)) continue;
    if (!request) {
      notDone.push(`${quoted} (not a change the built-in agent knows)`);
      continue;
    }
    if (!archetype.accepts.has(request.kind)) {
      notDone.push(`${quoted} (${archetype.describe} has no ${KIND_NAMES[request.kind]})`);
      continue;
    }
    const result = request.apply(current);
    if (typeof result === "string") notDone.push(`${quoted} (${result})`);
    else {
      current = result.spec;
      done.push(result.done);
    }
  }
  return { spec: current, done, notDone };
}

/** The prompt's clauses: its words split at sentence ends, commas, "and" and "then". */
function clauses(prompt: string): Word[][] {
  const found = prompt.slice(0, 4000).match(/[\p{L}\p{N}#][\p{L}\p{N}'’#-]*|[.;!?,"“”]/gu) ?? [];
  const result: Word[][] = [];
  let clause: Word[] = [];
  let quoted = false;
  for (const [i, text] of found.entries()) {
    const lower = text.toLowerCase();
    if (text === '"' || text === "“" || text === "”") {
      quoted = !quoted;
      continue;
    }
    // "rename it to Salt and Pepper": a name runs on over "and", unless a new request follows it.
    const naming =
      clause.some((word) => word.lower === "rename" || word.lower === "call") &&
      !VERBS.has(found[i + 1]?.toLowerCase() ?? "");
    if (!quoted && CLAUSE_BREAKS.has(lower) && !(naming && (lower === "and" || lower === "plus"))) {
      if (clause.length) result.push(clause);
      clause = [];
    } else clause.push({ text, lower });
  }
  if (clause.length) result.push(clause);
  return result.slice(0, 20);
}

interface Request {
  readonly kind: EditKind;
  apply(spec: AppSpec): { spec: AppSpec; done: string } | string;
}

const has = (clause: Word[], ...words: string[]) => clause.some((word) => words.includes(word.lower));
const after = (clause: Word[], ...words: string[]) => {
  const at = clause.findIndex((word) => words.includes(word.lower));
  return at === -1 ? [] : clause.slice(at + 1);
};
const phrase = (words: Word[]) =>
  words
    .filter((word, i) => !(i === 0 && FILLER.has(word.lower)))
    .map((word) => word.text)
    .join(" ");

function understand(clause: Word[], spec: AppSpec): Request | undefined {
  const first = clause[0]!.lower;
  const removing = ["remove", "delete", "drop", "hide"].includes(first) || has(clause, "without");

  if (first === "rename" || has(clause, "call", "title") || (first === "change" && has(clause, "name", "title")))
    return rename(clause);
  if (has(clause, "section") && (removing || has(clause, "add", "include", "with"))) return section(clause, removing);
  if (removing && has(clause, "field", "column")) return removeField(clause);
  if (removing) {
    // "remove the pricing": a section by its name.
    const named = spec.sections.find((candidate) => has(clause, candidate.id, candidate.title.toLowerCase()));
    if (named) return section(clause, true);
  }
  if (has(clause, "sort", "order", "sorted", "ordered")) return sort(clause);
  if (has(clause, "chart", "graph", "plot", "visualize", "visualise", "visualization")) return chart();
  if (has(clause, "search", "filter", "find")) return search();
  if (
    has(clause, "field", "column", "track", "record", "input") &&
    has(clause, "add", "track", "record", "include", "with")
  )
    return addField(clause);
  const scheme = has(clause, "dark") ? "dark" : has(clause, "light") ? "light" : undefined;
  const accent = clause.map((word) => word.lower).findLast((word) => ACCENTS[word]);
  if (scheme || accent) return theme(scheme, accent);
  return undefined;
}

function theme(scheme: "dark" | "light" | undefined, accent: string | undefined): Request {
  return {
    kind: "theme",
    apply: (spec) => {
      const done = [scheme && `switched to the ${scheme} theme`, accent && `made the accent colour ${accent}`].filter(
        Boolean,
      );
      return {
        spec: { ...spec, theme: { scheme: scheme ?? spec.theme.scheme, accent: accent ?? spec.theme.accent } },
        done: done.join(" and "),
      };
    },
  };
}

function rename(clause: Word[]): Request {
  const to = has(clause, "to") ? after(clause, "to") : after(clause, "it", "as");
  const name = truncate(phrase(to).trim(), 100);
  // "rename recipes to dishes" renames the thing held; "rename Rating to Stars" a field.
  const from = clause.slice(1, clause.length - to.length - 1).filter((word) => !FILLER.has(word.lower));
  const fromText = from.map((word) => word.lower).join(" ");
  return {
    kind: "rename",
    apply: (current) => {
      if (!name) return "it names no new name";
      const nounWords = [current.noun.one, current.noun.many];
      if (fromText && nounWords.includes(fromText)) {
        const one = singular(name.toLowerCase());
        const noun = { one, many: name.toLowerCase() === one ? `${one}s` : name.toLowerCase() };
        return { spec: { ...current, noun }, done: `renamed ${current.noun.many} to ${noun.many}` };
      }
      const field = fromText
        ? current.fields.find((candidate) => candidate.label.toLowerCase() === fromText)
        : undefined;
      if (field) {
        const fields = current.fields.map((candidate) =>
          candidate === field ? { ...field, label: capitalize(name) } : candidate,
        );
        return { spec: { ...current, fields }, done: `renamed the ${field.label} field to ${capitalize(name)}` };
      }
      return { spec: { ...current, title: name }, done: `renamed the app to "${name}"` };
    },
  };
}

function section(clause: Word[], removing: boolean): Request {
  return {
    kind: "section",
    apply: (spec) => {
      if (removing) {
        const named = spec.sections.find((candidate) =>
          has(clause, candidate.id, ...candidate.title.toLowerCase().split(" ")),
        );
        if (!named)
          return `there is no such section; the page has ${spec.sections.map((s) => s.title).join(", ") || "none"}`;
        return {
          spec: { ...spec, sections: spec.sections.filter((s) => s !== named) },
          done: `removed the ${named.title} section`,
        };
      }
      // "add an about section", "add a section about pricing".
      const at = clause.findIndex((word) => word.lower === "section");
      const before = clause
        .slice(0, at)
        .filter((word) => !FILLER.has(word.lower) && !["add", "include", "with"].includes(word.lower));
      const afterWords = clause
        .slice(at + 1)
        .filter((word) => !FILLER.has(word.lower) && word.lower !== "about" && word.lower !== "on");
      const title = capitalize(phrase(before.length ? before : afterWords) || "More");
      const id = slug(title) || "section";
      if (spec.sections.some((candidate) => candidate.id === id)) return `the page has a ${title} section already`;
      const added: Section = { id, title, text: sectionText(id, spec) };
      return {
        spec: { ...spec, sections: [...spec.sections, added] },
        done: `added a ${title} section (its text is a starting point to edit)`,
      };
    },
  };
}

function sectionText(id: string, spec: AppSpec): string {
  if (id === "about") return `${spec.title}: ${spec.tagline}`;
  if (id === "contact") return "Write to us: we would love to hear from you.";
  if (id === "faq" || id === "questions") return "Ask us anything: we answer within a day.";
  if (id === "pricing") return "Free to start. Paid plans when you grow, cancel any time.";
  return `More about ${spec.title} here soon.`;
}

function removeField(clause: Word[]): Request {
  return {
    kind: "field",
    apply: (spec) => {
      const field = spec.fields
        .slice(1)
        .find((candidate) => has(clause, candidate.key, ...candidate.label.toLowerCase().split(" ")));
      if (!field) return "no field of that name (the first field cannot be removed)";
      return {
        spec: { ...spec, fields: spec.fields.filter((candidate) => candidate !== field) },
        done: `removed the ${field.label} field`,
      };
    },
  };
}

function addField(clause: Word[]): Request {
  // "add a priority field", "add a field called due date", "track calories too".
  const at = clause.findIndex((word) => word.lower === "field" || word.lower === "column" || word.lower === "input");
  const words = (
    at > 0 && clause.slice(1, at).some((word) => !FILLER.has(word.lower))
      ? clause.slice(1, at)
      : clause.slice(at === -1 ? 1 : at + 1)
  ).filter(
    (word) =>
      !FILLER.has(word.lower) &&
      !["to", "each", "every", "too", "as", "well", "with", "field", "column"].includes(word.lower),
  );
  return {
    kind: "field",
    apply: (spec) => {
      const label = words
        .slice(0, 3)
        .map((word) => word.lower)
        .join(" ");
      if (!label) return "it names no field";
      const field: Field = fieldNamed(label);
      if (spec.fields.some((candidate) => candidate.key === field.key))
        return `there is a ${field.label} field already`;
      if (spec.fields.length >= 8) return "an app of the built-in agent has at most 8 fields";
      return {
        spec: { ...spec, fields: [...spec.fields, field] },
        done: `added a ${field.label} field (${describeType(field)})`,
      };
    },
  };
}

function describeType(field: Field): string {
  if (field.type === "select") return `a choice of ${(field.options ?? []).join(", ")}`;
  if (field.type === "money") return "an amount";
  return field.type === "textarea" ? "text" : field.type;
}

function chart(): Request {
  return {
    kind: "chart",
    apply: (spec) =>
      spec.features.chart
        ? "the app has a chart already"
        : { spec: { ...spec, features: { ...spec.features, chart: true } }, done: "added a chart" },
  };
}

function search(): Request {
  return {
    kind: "search",
    apply: (spec) =>
      spec.features.search
        ? "the app has search already"
        : {
            spec: { ...spec, features: { ...spec.features, search: true } },
            done: `added a search box over the ${spec.noun.many}`,
          },
  };
}

function sort(clause: Word[]): Request {
  return {
    kind: "sort",
    apply: (spec) => {
      const by = after(clause, "by").map((word) => word.lower);
      const newest =
        has(clause, "newest", "latest", "recent", "date") && !spec.fields.some((field) => field.type === "date");
      const field = spec.fields.find(
        (candidate) =>
          by.includes(candidate.key) ||
          candidate.label
            .toLowerCase()
            .split(" ")
            .some((word) => by.includes(word)),
      );
      const key =
        field?.key ??
        (newest
          ? "created"
          : has(clause, "name", "alphabetical", "alphabetically", "title")
            ? spec.fields[0]?.key
            : undefined);
      if (!key)
        return `no field to sort by (the fields are ${spec.fields.map((candidate) => candidate.label).join(", ")})`;
      const label =
        key === "created" ? "newest first" : `by ${spec.fields.find((candidate) => candidate.key === key)!.label}`;
      return {
        spec: { ...spec, features: { ...spec.features, sort: key } },
        done: `sorted the ${spec.noun.many} ${label}`,
      };
    },
  };
}
