// What differs between two contents of one file: whether either is binary, and for text a unified
// diff (jsdiff's Myers over lines, three lines of context). It is CPU work on tenant content, so it
// runs in a build thread (src/jobs/build-pool/, `diffFiles`), never on the API's event loop;
// version-diff.ts asks for it through `DiffFiles`. Time is bounded per file and per request, memory
// by the thread's heap limit; a patch past either is left out (null), never cut short.
import { diffArrays, FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from "diff";

/** Lines of unchanged context around each change. */
export const PATCH_CONTEXT_LINES = 3;
/** A patch longer than this (in UTF-8) is left out. */
export const MAX_PATCH_BYTES = 1024 * 1024;
/** One file's line diff stops here (left out), so a hostile file cannot spend a request's whole budget. */
export const FILE_DIFF_TIMEOUT_MS = 1_000;

/** The two contents of a file; null for the side where it does not exist. */
export interface ContentPair {
  readonly path: string;
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
  /** The contents' first bytes only (the file is too large for a patch): judge `binary`, no patch. */
  readonly partial?: boolean;
}

export interface ContentDiff {
  /** Either side is not UTF-8 text, or holds a NUL. */
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  /** Null for binary content, and for text whose patch was left out (too large, or over the budget). */
  readonly patch: string | null;
}

export interface DiffRequest {
  readonly pairs: readonly ContentPair[];
  /** How long the line diffs of these pairs may take in all; a pair reached after it is left out. */
  readonly budgetMs: number;
}

export interface DiffAnswer {
  /** One per pair, in order. */
  readonly diffs: readonly ContentDiff[];
  /** The time the line diffs took, for the caller's budget. */
  readonly spentMs: number;
}

/** diffContents off the event loop: a build thread's `diffFiles`. */
export type DiffFiles = (request: DiffRequest) => Promise<DiffAnswer>;

/** A text file whose patch was left out. */
export const LEFT_OUT: ContentDiff = { binary: false, additions: 0, deletions: 0, patch: null };
const BINARY: ContentDiff = { binary: true, additions: 0, deletions: 0, patch: null };

/** The diffs of `request`'s pairs, in order. CPU-bound: call it in a build thread. */
export function diffContents(request: DiffRequest): DiffAnswer {
  let spentMs = 0;
  const diffs = request.pairs.map((pair) => {
    const text = (content: Uint8Array | null) => (content === null ? null : textOf(content, !pair.partial));
    const [before, after] = [text(pair.before), text(pair.after)];
    if (before === undefined || after === undefined) return BINARY;
    const left = request.budgetMs - spentMs;
    if (pair.partial || left <= 0) return LEFT_OUT;
    const started = Date.now();
    const diff = unifiedDiff(pair.path, before, after, Math.min(left, FILE_DIFF_TIMEOUT_MS));
    spentMs += Date.now() - started;
    return diff;
  });
  return { diffs, spentMs };
}

/**
 * The content as text; undefined when it is binary: not UTF-8, or holding a NUL. `whole` false: the
 * content is a file's first bytes, which may end inside a character.
 */
export function textOf(content: Uint8Array, whole = true): string | undefined {
  if (content.includes(0)) return undefined;
  try {
    // A decoder per call: a streaming decode keeps the cut character for the next one.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(content, { stream: !whole });
  } catch {
    return undefined;
  }
}

/**
 * The unified diff of a file's two texts (null: the side where it does not exist, `/dev/null` in the
 * headers); left out when the line diff passes `timeoutMs` or the patch MAX_PATCH_BYTES.
 */
export function unifiedDiff(path: string, before: string | null, after: string | null, timeoutMs: number): ContentDiff {
  const oldLines = linesOf(before ?? "");
  const newLines = linesOf(after ?? "");
  const common = commonLines(oldLines, newLines, timeoutMs);
  if (!common) return LEFT_OUT;
  const additions = newLines.length - common.length;
  const deletions = oldLines.length - common.length;
  const patch = formatPatch(
    {
      oldFileName: before === null ? "/dev/null" : `a/${path}`,
      newFileName: after === null ? "/dev/null" : `b/${path}`,
      oldHeader: undefined,
      newHeader: undefined,
      hunks: hunksOf(oldLines, newLines, common),
    },
    FILE_HEADERS_ONLY,
  );
  if (Buffer.byteLength(patch) > MAX_PATCH_BYTES) return LEFT_OUT;
  return { binary: false, additions, deletions, patch };
}

/** The text's lines, each with its `\n` (the last one may have none), as jsdiff's line diff splits them. */
function linesOf(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** A line kept by both sides: its index in the old lines and in the new. */
type Match = readonly [oldIndex: number, newIndex: number];

/**
 * The lines common to both sides (a longest common subsequence), in order; undefined past `timeoutMs`.
 * A line found on one side only is an edit whatever the alignment, so only the lines found on both
 * go to jsdiff's Myers (GNU diff's discarding of unmatched lines): a file rewritten line by line costs
 * O(n), not Myers' O(n·d). Lines are compared as numbers, each distinct line hashed once.
 */
function commonLines(oldLines: readonly string[], newLines: readonly string[], timeoutMs: number): Match[] | undefined {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const oldIds = oldLines.map(idOf);
  const newIds = newLines.map(idOf);
  const inOld = new Uint8Array(ids.size);
  const inNew = new Uint8Array(ids.size);
  for (const id of oldIds) inOld[id] = 1;
  for (const id of newIds) inNew[id] = 1;
  const oldKept: number[] = [];
  const newKept: number[] = [];
  oldIds.forEach((id, index) => inNew[id] && oldKept.push(index));
  newIds.forEach((id, index) => inOld[id] && newKept.push(index));
  if (oldKept.length === 0 || newKept.length === 0) return [];
  const changes = diffArrays(
    oldKept.map((index) => oldIds[index]!),
    newKept.map((index) => newIds[index]!),
    { timeout: timeoutMs },
  );
  if (!changes) return undefined;
  const common: Match[] = [];
  let [oldAt, newAt] = [0, 0];
  for (const change of changes) {
    if (change.added) newAt += change.count;
    else if (change.removed) oldAt += change.count;
    else for (let k = 0; k < change.count; k++) common.push([oldKept[oldAt++]!, newKept[newAt++]!]);
  }
  return common;
}

/** A run of lines kept by both sides: where it starts on each, and its length. */
interface Run {
  readonly oldStart: number;
  readonly newStart: number;
  length: number;
}

/**
 * The hunks of the patch: each change (what lies between two runs of common lines) with up to
 * PATCH_CONTEXT_LINES lines of context either side, changes closer than twice that in one hunk, the
 * removed lines before the added, as jsdiff's structuredPatch makes them.
 */
function hunksOf(
  oldLines: readonly string[],
  newLines: readonly string[],
  common: readonly Match[],
): StructuredPatchHunk[] {
  const runs: Run[] = [{ oldStart: 0, newStart: 0, length: 0 }];
  for (const [oldIndex, newIndex] of common) {
    const last = runs.at(-1)!;
    if (last.oldStart + last.length === oldIndex && last.newStart + last.length === newIndex) last.length += 1;
    else runs.push({ oldStart: oldIndex, newStart: newIndex, length: 1 });
  }
  runs.push({ oldStart: oldLines.length, newStart: newLines.length, length: 0 });
  // Whether lines differ between run i and the next: runs are maximal, so only the two ends may touch.
  const changedAfter = (i: number) =>
    runs[i]!.oldStart + runs[i]!.length !== runs[i + 1]!.oldStart ||
    runs[i]!.newStart + runs[i]!.length !== runs[i + 1]!.newStart;

  const context = PATCH_CONTEXT_LINES;
  const hunks: StructuredPatchHunk[] = [];
  let hunk: StructuredPatchHunk | undefined;
  const add = (prefix: string, line: string, side: "old" | "new" | "both") => {
    // The last line of a file may lack its newline; the patch says so on a line of its own.
    if (line.endsWith("\n")) hunk!.lines.push(prefix + line.slice(0, -1));
    else hunk!.lines.push(prefix + line, "\\ No newline at end of file");
    if (side !== "new") hunk!.oldLines += 1;
    if (side !== "old") hunk!.newLines += 1;
  };
  const addContext = (run: Run, from: number, to: number) => {
    for (let k = from; k < to; k++) add(" ", oldLines[run.oldStart + k]!, "both");
  };
  for (let i = 0; i + 1 < runs.length; i++) {
    const [run, next] = [runs[i]!, runs[i + 1]!];
    if (!changedAfter(i)) continue;
    const oldFrom = run.oldStart + run.length;
    const newFrom = run.newStart + run.length;
    if (!hunk) {
      const lead = Math.min(context, run.length);
      hunk = { oldStart: oldFrom - lead + 1, oldLines: 0, newStart: newFrom - lead + 1, newLines: 0, lines: [] };
      addContext(run, run.length - lead, run.length);
    }
    for (let k = oldFrom; k < next.oldStart; k++) add("-", oldLines[k]!, "old");
    for (let k = newFrom; k < next.newStart; k++) add("+", newLines[k]!, "new");
    if (i + 2 < runs.length && changedAfter(i + 1) && next.length <= 2 * context) {
      addContext(next, 0, next.length);
    } else {
      addContext(next, 0, Math.min(context, next.length));
      hunks.push(hunk);
      hunk = undefined;
    }
  }
  return hunks;
}
