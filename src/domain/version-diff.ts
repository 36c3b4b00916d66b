// A version's diff: the files that differ from a base version (by default the one numbered one less;
// for version 1, the empty tree), each with a unified patch when it is text. The two trees are
// compared in memory by path and SHA-256, so only the files whose content changed are read, and their
// patches are worked out in a build thread (`DiffFiles`, file-diff.ts), a batch of contents at a time.
//
// Limits, so that one diff costs bounded time and memory whatever the project holds: a file over
// MAX_DIFF_FILE_BYTES on either side, a patch over MAX_PATCH_BYTES, and the line diffs after
// DIFF_BUDGET_MS of work are left out (patch null, the diff `truncated`).
import { and, eq, sql } from "drizzle-orm";
import type { SchemaVersionDiff, SchemaVersionDiffFile } from "../../generated/schema.d.ts";
import type { Queryable } from "../storage/index.ts";
import { blobChunks, versions } from "../storage/schema.ts";
import { readBlobBytes, versionTree, type TreeFile } from "./builds.ts";
import type { ContentPair, DiffFiles } from "./file-diff.ts";
import type { Partition } from "./partition.ts";
import { findVersion, type VersionRow } from "./versions.ts";

/** A file larger than this on either side gets no patch. */
export const MAX_DIFF_FILE_BYTES = 1024 * 1024;
/** How long a diff's line diffs may take in all. */
export const DIFF_BUDGET_MS = 5_000;
/** The most files a diff lists (the contract's bound); past it the diff is `truncated`. */
export const MAX_DIFF_FILES = 10_000;
/** Contents handed to a thread at once: what a diff holds in memory besides its patches. */
const BATCH_BYTES = 8 * 1024 * 1024;

/** A file that differs: its entry on each side where it exists. */
interface Change {
  readonly path: string;
  readonly before: TreeFile | undefined;
  readonly after: TreeFile | undefined;
}

/**
 * The diff of version `versionId` against `baseId` (404 naming `base` when that is not a version of
 * the project), or against the version before it.
 */
export async function getVersionDiff(
  db: Queryable,
  diffFiles: DiffFiles,
  partition: Partition,
  projectId: string,
  versionId: string,
  baseId?: string,
): Promise<SchemaVersionDiff> {
  const version = await findVersion(db, partition, projectId, versionId);
  const base =
    baseId === undefined
      ? await versionNumbered(db, projectId, version.number - 1)
      : await findVersion(db, partition, projectId, baseId, "base");
  const changes = changedFiles(base ? await versionTree(db, base.id) : [], await versionTree(db, version.id));
  const listed = changes.slice(0, MAX_DIFF_FILES);
  const files = await diffChanges(db, diffFiles, listed);
  return {
    base_version_id: base?.id ?? null,
    version_id: version.id,
    files: files.map(({ file }) => file),
    truncated: listed.length < changes.length || files.some(({ leftOut }) => leftOut),
  };
}

/** The project's version numbered `number`; none for 0 (before version 1). */
async function versionNumbered(db: Queryable, projectId: string, number: number): Promise<VersionRow | undefined> {
  if (number < 1) return undefined;
  const [row] = await db
    .select()
    .from(versions)
    .where(and(eq(versions.projectId, projectId), eq(versions.number, number)));
  return row;
}

/**
 * The files whose content differs, sorted by path. Matched by path in a map rather than merged as
 * the trees come: their order is the database's collation, which need not be this code's.
 */
function changedFiles(before: readonly TreeFile[], after: readonly TreeFile[]): Change[] {
  const old = new Map(before.map((file) => [file.path, file]));
  const changes: Change[] = [];
  for (const file of after) {
    const was = old.get(file.path);
    old.delete(file.path);
    if (was?.sha256 !== file.sha256) changes.push({ path: file.path, before: was, after: file });
  }
  for (const was of old.values()) changes.push({ path: was.path, before: was, after: undefined });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Each change as the contract's file, and whether its patch was left out for its size or cost. */
async function diffChanges(
  db: Queryable,
  diffFiles: DiffFiles,
  changes: readonly Change[],
): Promise<{ file: SchemaVersionDiffFile; leftOut: boolean }[]> {
  const results: { file: SchemaVersionDiffFile; leftOut: boolean }[] = [];
  let budgetMs = DIFF_BUDGET_MS;
  let batch: { change: Change; pair: ContentPair }[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const answer = await diffFiles({ pairs: batch.map(({ pair }) => pair), budgetMs: Math.max(0, budgetMs) });
    budgetMs -= answer.spentMs;
    answer.diffs.forEach((diff, index) => {
      const change = batch[index]!.change;
      results.push({
        file: {
          path: change.path,
          status: !change.before ? "added" : !change.after ? "deleted" : "modified",
          additions: diff.additions,
          deletions: diff.deletions,
          binary: diff.binary,
          patch: diff.patch,
        },
        leftOut: !diff.binary && diff.patch === null,
      });
    });
    batch = [];
    batchBytes = 0;
  };
  for (const change of changes) {
    const sides = [change.before, change.after];
    // Too large for a patch: only its first bytes are read, for the thread to tell text from binary.
    const partial = sides.some((file) => file && file.sizeBytes > MAX_DIFF_FILE_BYTES);
    const read = (file: TreeFile | undefined) =>
      !file ? null : partial ? firstBytes(db, file) : readBlobBytes(db, file.sha256, file.sizeBytes);
    const [before, after] = [await read(change.before), await read(change.after)];
    batch.push({ change, pair: { path: change.path, before, after, ...(partial ? { partial } : {}) } });
    batchBytes += (before?.length ?? 0) + (after?.length ?? 0);
    if (batchBytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return results;
}

/** Bytes enough to tell text from binary (git reads 8,000): cut in the database, not after reading a chunk. */
const SNIFF_BYTES = 8192;

/** The first SNIFF_BYTES of a file's content. */
async function firstBytes(db: Queryable, file: TreeFile): Promise<Uint8Array> {
  const [row] = await db
    .select({ data: sql<Uint8Array>`substring(${blobChunks.data} from 1 for ${SNIFF_BYTES})` })
    .from(blobChunks)
    .where(and(eq(blobChunks.sha256, file.sha256), eq(blobChunks.seq, 0)));
  return row ? new Uint8Array(row.data) : new Uint8Array(0);
}
