// Versions: immutable snapshots of a project's files, numbered 1, 2, 3 … per project without gaps.
// A succeeded run that changed something records one, as do a restore, a checkpoint and a fork.
// A version's tree names blobs (builds.ts), so a file that did not change costs a row, not a copy.
// Numbers are taken under the project's row lock, which every writer of a project's versions holds.
import { and, desc, eq, inArray } from "drizzle-orm";
import type {
  SchemaCreateVersionRequest,
  SchemaForkProjectRequest,
  SchemaProject,
  SchemaVersion,
  SchemaVersionSource,
} from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { agentRuns, projects, versions } from "../storage/schema.ts";
import { activeStatuses } from "./agent-run-shape.ts";
import { currentTree, versionTree, writeVersionTree, type TreeFile } from "./builds.ts";
import { contractFields } from "./contract-fields.ts";
import { ConflictError, NotFoundError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { replaceFilesWithVersion } from "./files.ts";
import { findProject, foundInProject, toProject, withProjectLocked } from "./projects.ts";
import { inPartition, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";

export type VersionRow = typeof versions.$inferSelect;

export function toVersion(row: VersionRow): SchemaVersion {
  return contractFields(row, [
    "id",
    "projectId",
    "number",
    "source",
    "agentRunId",
    "restoredFrom",
    "message",
    "fileCount",
    "sizeBytes",
    "createdAt",
  ]);
}

export const versionNotFound = (projectId: string, versionId: string, param = "version_id") =>
  new NotFoundError(`No version ${versionId} in project ${projectId}.`, param);

interface Recorded {
  readonly source: SchemaVersionSource;
  readonly agentRunId?: string;
  readonly restoredFrom?: string;
  readonly message?: string | null;
}

/**
 * Records a version of the project's current files (or of `tree`, a fork's) and its
 * `version.created` event. The caller holds the project's row lock.
 */
export async function recordVersion(
  tx: Queryable,
  partition: Partition,
  projectId: string,
  recorded: Recorded,
  tree?: readonly TreeFile[],
): Promise<SchemaVersion> {
  const id = newId("ver");
  const [last] = await tx
    .select({ number: versions.number, createdAt: versions.createdAt })
    .from(versions)
    .where(eq(versions.projectId, projectId))
    .orderBy(desc(versions.number))
    .limit(1);
  // Lists go newest first by creation time: it grows with the number, even when two writers'
  // clocks (or one clock within a millisecond) would not.
  const now = Date.now();
  const createdAt = new Date(last ? Math.max(now, last.createdAt.getTime() + 1) : now);
  // The tree's content into blobs first, so the row is written once with its counts.
  const files = tree ?? (await currentTree(tx, projectId));
  const [row] = await tx
    .insert(versions)
    .values({
      id,
      projectId,
      ...partition,
      number: (last?.number ?? 0) + 1,
      source: recorded.source,
      agentRunId: recorded.agentRunId ?? null,
      restoredFrom: recorded.restoredFrom ?? null,
      message: recorded.message?.slice(0, 1000) ?? null,
      fileCount: files.length,
      sizeBytes: files.reduce((sum, file) => sum + file.sizeBytes, 0),
      createdAt,
    })
    .returning();
  await writeVersionTree(tx, id, files);
  const version = toVersion(row!);
  await recordEvent(tx, partition, "version.created", version);
  return version;
}

/** The project's latest version, if it has one. */
export async function latestVersion(db: Queryable, projectId: string): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(versions)
    .where(eq(versions.projectId, projectId))
    .orderBy(desc(versions.number))
    .limit(1);
  return row;
}

/** Whether `tree` holds exactly the files of the project's latest version (none: never the same). */
export async function sameAsLatest(db: Queryable, projectId: string, tree: readonly TreeFile[]): Promise<boolean> {
  const latest = await latestVersion(db, projectId);
  if (!latest) return false;
  const before = await versionTree(db, latest.id);
  return (
    before.length === tree.length &&
    before.every(
      (file, i) =>
        file.path === tree[i]!.path && file.sha256 === tree[i]!.sha256 && file.contentType === tree[i]!.contentType,
    )
  );
}

/** The version, looked up in the project and partition; 404 naming `param` when there is none. */
export async function findVersion(
  db: Queryable,
  partition: Partition,
  projectId: string,
  versionId: string,
  param = "version_id",
): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(versions)
    .where(and(eq(versions.id, versionId), eq(versions.projectId, projectId), inPartition(versions, partition)));
  return foundInProject(db, partition, projectId, row, () => versionNotFound(projectId, versionId, param));
}

export async function getVersion(
  db: Database,
  partition: Partition,
  projectId: string,
  versionId: string,
): Promise<SchemaVersion> {
  return toVersion(await findVersion(db, partition, projectId, versionId));
}

/** The project's versions, newest first: one statement, and a second only to tell an empty page from a missing project. */
export async function listVersions(
  db: Database,
  partition: Partition,
  projectId: string,
  page: PageRequest,
): Promise<Page<SchemaVersion>> {
  const where = and(eq(versions.projectId, projectId), inPartition(versions, partition));
  const listed = await listPage(db, versions, where, page, toVersion);
  if (listed.items.length === 0) await findProject(db, partition, projectId);
  return listed;
}

/** A checkpoint: the project's current files (uploads and deletes included) as a new version. */
export async function createVersion(
  db: Database,
  partition: Partition,
  projectId: string,
  input: SchemaCreateVersionRequest | undefined,
  commit: Commit<SchemaVersion> = inTransaction(db),
): Promise<SchemaVersion> {
  return withProjectLocked(commit, partition, projectId, (tx) =>
    recordVersion(tx, partition, projectId, { source: "checkpoint", message: input?.message ?? null }),
  );
}

/**
 * Makes the project's files exactly the version's and records that as a new version (`restore`),
 * in one transaction: a crash part way leaves the files as they were. A run that is not final would
 * write over the restore when it ends, so it is a conflict.
 */
export async function restoreVersion(
  db: Database,
  partition: Partition,
  projectId: string,
  versionId: string,
  commit: Commit<SchemaVersion> = inTransaction(db),
): Promise<SchemaVersion> {
  return withProjectLocked(commit, partition, projectId, async (tx) => {
    const version = await findVersion(tx, partition, projectId, versionId);
    const [active] = await tx
      .select({ id: agentRuns.id, status: agentRuns.status })
      .from(agentRuns)
      .where(and(eq(agentRuns.projectId, projectId), inArray(agentRuns.status, activeStatuses)))
      .limit(1);
    if (active) {
      throw new ConflictError(
        `Agent run ${active.id} of project ${projectId} is ${active.status}; restore once it is final (or cancel it).`,
      );
    }
    await replaceFilesWithVersion(tx, partition, projectId, version.id);
    return recordVersion(tx, partition, projectId, { source: "restore", restoredFrom: version.id });
  });
}

/**
 * A new project in the same partition with the files of one of this project's versions (the
 * latest by default): its own version 1 (`fork`), no runs, and `forked_from`. A project with no
 * version yet has nothing to fork.
 */
export async function forkProject(
  db: Database,
  partition: Partition,
  projectId: string,
  input: SchemaForkProjectRequest | undefined,
  commit: Commit<SchemaProject> = inTransaction(db),
): Promise<SchemaProject> {
  return withProjectLocked(commit, partition, projectId, async (tx, source) => {
    const version = input?.version_id
      ? await findVersion(tx, partition, projectId, input.version_id)
      : await latestVersion(tx, projectId);
    if (!version) throw new ConflictError(`Project ${projectId} has no version to fork yet.`);
    const now = new Date();
    const [row] = await tx
      .insert(projects)
      .values({
        id: newId("prj"),
        ...partition,
        name: input?.name ?? forkName(source.name),
        prompt: source.prompt,
        agent: source.agent,
        visibility: input?.visibility ?? source.visibility,
        template: source.template,
        status: "ready",
        forkedFromProjectId: source.id,
        forkedFromVersionId: version.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const fork = toProject(row!);
    await recordEvent(tx, partition, "project.created", fork);
    await replaceFilesWithVersion(tx, partition, fork.id, version.id);
    await recordVersion(tx, partition, fork.id, { source: "fork" }, await versionTree(tx, version.id));
    return fork;
  });
}

/** "<name> (fork)", the name cut so that the whole fits the contract's 100 characters. */
function forkName(name: string): string {
  const suffix = " (fork)";
  const chars = [...name];
  return chars.length + suffix.length <= 100
    ? `${name}${suffix}`
    : `${chars.slice(0, 100 - suffix.length).join("")}${suffix}`;
}
