// Builds: immutable file trees kept apart from a project's live files, so later uploads, deletes
// and runs never change what was built or published. A run's snapshot (run_files) is the project's
// files when the run ended; a version's tree (version_files) the project's files when it was
// recorded; a deployment's tree (deployment_files) a version's after the build step. All name their
// content by SHA-256 in `blobs`, so content shared by several trees (most files, most of the time)
// is stored once.
import { createHash } from "node:crypto";
import { and, asc, eq, notExists, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { blobChunks, blobs, deploymentFiles, fileChunks, runFiles, versionFiles } from "../storage/schema.ts";
import { chunksOf, committedFiles } from "./files.ts";

/** One entry of a build's tree, its content read on demand. */
export interface TreeFile {
  readonly path: string;
  readonly sha256: string;
  readonly contentType: string;
  readonly sizeBytes: number;
}

/** Records the project's current files as the run's snapshot, and answers it (in path order). */
export async function snapshotRun(tx: Queryable, projectId: string, runId: string): Promise<TreeFile[]> {
  const current = await currentTree(tx, projectId);
  if (current.length > 0) await tx.insert(runFiles).values(current.map((file) => ({ runId, ...file })));
  return current;
}

/** Records a version's tree: the project's current files (currentTree), or a fork's source version's. */
export async function writeVersionTree(tx: Queryable, versionId: string, tree: readonly TreeFile[]): Promise<void> {
  if (tree.length > 0) await tx.insert(versionFiles).values(tree.map((file) => ({ versionId, ...file })));
}

/**
 * The project's current files as tree entries, their content in `blobs`. Content not yet there is
 * copied from the files' chunks inside the database; content already there costs one index probe.
 */
export async function currentTree(tx: Queryable, projectId: string): Promise<TreeFile[]> {
  const current = await committedFiles(tx, projectId);
  for (const file of current) {
    const [created] = await tx
      .insert(blobs)
      .values({ sha256: file.sha256, sizeBytes: file.sizeBytes })
      .onConflictDoNothing()
      .returning({ sha256: blobs.sha256 });
    if (created) {
      await tx.execute(
        sql`insert into ${blobChunks} (sha256, seq, data) select ${file.sha256}, seq, data from ${fileChunks} where file_id = ${file.id}`,
      );
    }
  }
  return current.map(({ path, sha256, contentType, sizeBytes }) => ({ path, sha256, contentType, sizeBytes }));
}

/** Stores content as a blob (a no-op when the same content is stored already). Returns its hash. */
export async function putBlob(tx: Queryable, content: Uint8Array): Promise<string> {
  const sha256 = createHash("sha256").update(content).digest("hex");
  const [created] = await tx
    .insert(blobs)
    .values({ sha256, sizeBytes: content.length })
    .onConflictDoNothing()
    .returning({ sha256: blobs.sha256 });
  if (created) for (const chunk of chunksOf(content)) await tx.insert(blobChunks).values({ sha256, ...chunk });
  return sha256;
}

/** A blob's content, chunk by chunk. */
export async function* readBlob(db: Queryable, sha256: string, sizeBytes: number): AsyncGenerator<Uint8Array> {
  let sent = 0;
  for (let seq = 0; sent < sizeBytes; seq++) {
    const [chunk] = await db
      .select({ data: blobChunks.data })
      .from(blobChunks)
      .where(and(eq(blobChunks.sha256, sha256), eq(blobChunks.seq, seq)));
    if (!chunk) throw new Error(`blob ${sha256} lost its chunk ${seq}`);
    sent += chunk.data.length;
    yield chunk.data;
  }
}

/** A blob's whole content, for the build step (which needs files in memory). */
export async function readBlobBytes(db: Queryable, sha256: string, sizeBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of readBlob(db, sha256, sizeBytes)) parts.push(part);
  return Buffer.concat(parts, sizeBytes);
}

/** A tree table's entry as a TreeFile. */
type TreeTable = typeof runFiles | typeof versionFiles | typeof deploymentFiles;

const treeColumns = (table: TreeTable) => ({
  path: table.path,
  sha256: table.sha256,
  contentType: table.contentType,
  sizeBytes: table.sizeBytes,
});

/** The run's snapshot, in path order (empty when the run did not succeed). */
export function runTree(db: Queryable, runId: string): Promise<TreeFile[]> {
  return tree(db, runFiles, eq(runFiles.runId, runId));
}

/** The version's tree, in path order. */
export function versionTree(db: Queryable, versionId: string): Promise<TreeFile[]> {
  return tree(db, versionFiles, eq(versionFiles.versionId, versionId));
}

/** The deployment's published tree, in path order. */
export function deploymentTree(db: Queryable, deploymentId: string): Promise<TreeFile[]> {
  return tree(db, deploymentFiles, eq(deploymentFiles.deploymentId, deploymentId));
}

/** The entries of a tree table that `owner` selects (one run's, one deployment's), in path order. */
async function tree(db: Queryable, table: TreeTable, owner: SQL): Promise<TreeFile[]> {
  return db.select(treeColumns(table)).from(table).where(owner).orderBy(asc(table.path));
}

/** One file of a deployment's published tree. */
export async function deploymentFile(db: Queryable, deploymentId: string, path: string): Promise<TreeFile | undefined> {
  const [row] = await db
    .select(treeColumns(deploymentFiles))
    .from(deploymentFiles)
    .where(and(eq(deploymentFiles.deploymentId, deploymentId), eq(deploymentFiles.path, path)));
  return row;
}

/** Records a deployment's published tree. */
export async function writeDeploymentTree(
  tx: Queryable,
  deploymentId: string,
  tree: readonly TreeFile[],
): Promise<void> {
  if (tree.length === 0) return;
  await tx.insert(deploymentFiles).values(tree.map((file) => ({ deploymentId, ...file })));
}

/**
 * Removes blobs no build refers to any more (their projects or runs were deleted). Returns how
 * many. A build that takes up an old blob while this runs holds a key-share lock on it, so the
 * delete fails on the foreign key rather than pulling content from under it; the next pass retries.
 */
export async function purgeUnreferencedBlobs(db: Queryable): Promise<number> {
  const removed = await db
    .delete(blobs)
    .where(
      and(
        notExists(
          db
            .select({ one: sql`1` })
            .from(runFiles)
            .where(eq(runFiles.sha256, blobs.sha256)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(versionFiles)
            .where(eq(versionFiles.sha256, blobs.sha256)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(deploymentFiles)
            .where(eq(deploymentFiles.sha256, blobs.sha256)),
        ),
      ),
    )
    .returning({ sha256: blobs.sha256 });
  return removed.length;
}
