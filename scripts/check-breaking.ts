// npm run check:breaking: is the contract still compatible with the last release?
//
// Compares generated/openapi.yaml with generated/released/openapi.yaml (the
// copy of the last released document, committed by the release process) using
// api-smart-diff, which classifies every change as breaking, non-breaking,
// deprecated, annotation or unclassified. Prints each breaking change with its
// place in the document and exits 1 if there is any.
//
//   npm run check:breaking
//   npm run check:breaking -- --released old.yaml --current new.yaml
//   npm run check:breaking -- --release   # release process: record the current
//                                         # document as released (then commit it)
//
// Until the first release there is no released copy: the check says so and passes.
//
// api-smart-diff cannot tell a widened request pattern from a narrowed one. A change it calls
// breaking that a review found compatible is listed in spec/compatible-changes.yaml with its exact
// place and description and the reason; only that exact change is let through.

import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { apiCompare } from "api-smart-diff";
import type { Diff } from "api-smart-diff";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CURRENT = join(root, "generated", "openapi.yaml");
export const RELEASED = join(root, "generated", "released", "openapi.yaml");
/** Changes api-smart-diff calls breaking that were reviewed as compatible, each with its reason. */
export const REVIEWED = join(root, "spec", "compatible-changes.yaml");

/** A reviewed change: the place and description check:breaking prints, and why it breaks no client. */
export interface ReviewedChange {
  where: string;
  description: string;
  reason: string;
}

export interface Change {
  type: Diff["type"];
  action: Diff["action"];
  where: string;
  description: string;
}

/** `paths["/v1/projects"].post.requestBody.content["application/json"]`: readable and unambiguous. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  return path
    .map((key, i) => {
      if (typeof key === "number") return `[${key}]`;
      if (/^[A-Za-z_$][\w$-]*$/.test(key)) return i === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join("");
}

/**
 * Classified changes between two OpenAPI documents.
 *
 * Only changes a client can observe are kept: everything outside
 * `components`. api-smart-diff also diffs `components` on its own, but there
 * it cannot know whether a schema is read or written (it treats every schema
 * as a request: a new property in a response model shows up as "breaking").
 * Component changes that matter reach the operations using them, where they
 * are classified with the right direction.
 */
export function compareContracts(
  released: unknown,
  current: unknown,
  reviewed: readonly ReviewedChange[] = [],
): Change[] {
  const { diffs } = apiCompare(released, current);
  return diffs
    .filter((diff) => diff.path[0] !== "components")
    .map((diff) => {
      const where = formatPath(diff.path);
      const description = describe(diff);
      const compatible =
        addsResponseEnumValue(diff) ||
        reviewed.some((entry) => entry.where === where && entry.description === description);
      return { type: compatible ? "non-breaking" : diff.type, action: diff.action, where, description };
    });
}

/**
 * A value added to an enum of a response (a new error code, say). api-smart-diff counts it as
 * breaking; the versioning policy (CHANGELOG.md) makes it a minor change: clients must accept
 * enum values they do not know. Request enums and callbacks keep api-smart-diff's verdict.
 */
function addsResponseEnumValue(diff: Diff): boolean {
  const { path } = diff;
  return (
    diff.action === "add" &&
    path[0] === "paths" &&
    path.includes("responses") &&
    !path.includes("callbacks") &&
    path[path.length - 2] === "enum" &&
    typeof path[path.length - 1] === "number"
  );
}

/** api-smart-diff's description, completed where it leaves gaps, with the old and new value of a replaced scalar. */
function describe(diff: Diff): string {
  const key = String(diff.path[diff.path.length - 1]);
  // For a $ref reached a second time its annotation leaves the subject empty: "[Replaced]  in ...".
  let text = (diff.description ?? `[${diff.action}] ${key}`).replace(/^\[(\w+)\]\s{2,}/, `[$1] ${key} `);
  const scalar = (value: unknown): boolean => value === null || ["string", "number", "boolean"].includes(typeof value);
  if (diff.action === "replace" && scalar(diff.before) && scalar(diff.after)) {
    text += ` (${JSON.stringify(diff.before)} -> ${JSON.stringify(diff.after)})`;
  }
  return text;
}

function load(file: string): unknown {
  return parse(readFileSync(file, "utf8"));
}

function main(): number {
  const { values } = parseArgs({
    options: {
      released: { type: "string", default: RELEASED },
      current: { type: "string", default: CURRENT },
      release: { type: "boolean", default: false },
    },
  });
  const released = resolve(values.released);
  const current = resolve(values.current);
  const show = (file: string): string => relative(process.cwd(), file) || file;

  if (!existsSync(current)) {
    console.error(`check:breaking: ${show(current)} is missing. Run \`npm run build\` first.`);
    return 1;
  }

  if (values.release) {
    mkdirSync(dirname(released), { recursive: true });
    copyFileSync(current, released);
    console.log(
      `check:breaking: recorded ${show(current)} as the released contract in ${show(released)}; commit it with the release.`,
    );
    return 0;
  }

  if (!existsSync(released)) {
    console.log(`check:breaking: no released contract at ${show(released)} yet, nothing to compare with.`);
    console.log(
      "check:breaking: note: the release process records one with `npm run check:breaking -- --release`. Passing.",
    );
    return 0;
  }

  const reviewed = existsSync(REVIEWED) ? ((load(REVIEWED) as ReviewedChange[] | null) ?? []) : [];
  const changes = compareContracts(load(released), load(current), reviewed);
  const breaking = changes.filter((change) => change.type === "breaking");
  const count = (type: Diff["type"]): number => changes.filter((change) => change.type === type).length;

  console.log(`check:breaking: ${show(released)} -> ${show(current)}`);
  console.log(
    `  ${breaking.length} breaking, ${count("non-breaking")} non-breaking, ${count("deprecated")} deprecated, ` +
      `${count("annotation")} annotation, ${count("unclassified")} unclassified change(s)`,
  );
  for (const change of changes.filter((c) => c.type === "unclassified")) {
    console.log(`  ? unclassified: ${change.description}\n      at ${change.where}`);
  }
  for (const change of breaking) {
    console.log(`  ✗ BREAKING: ${change.description}\n      at ${change.where}`);
  }
  if (breaking.length > 0) {
    console.error(
      "check:breaking: failed. A breaking change needs a new major version (/v2), per the versioning policy; " +
        "otherwise make it backward compatible.",
    );
    return 1;
  }
  console.log("check:breaking: no breaking change.");
  return 0;
}

if (import.meta.main) process.exit(main());
