// Deployments: a succeeded agent run's build served at a target. queued → building → ready | failed;
// when a newer deployment of the same target becomes ready, the previous ready one is superseded.
// A rollback is a new deployment of an earlier build (`rollback_of`), never a revived record.
// The API queues deployments with their build job; the deployment worker (src/jobs/) moves them on
// with startDeploymentBuild, then publishDeployment or failDeployment: both sides of one state
// machine, here together.
import { and, eq, inArray, ne } from "drizzle-orm";
import type {
  SchemaCreateDeploymentRequest,
  SchemaDeployment,
  SchemaDeploymentStatus,
  SchemaDeploymentTarget,
  SchemaVisibility,
} from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable } from "../storage/index.ts";
import { newId, randomBase36 } from "../storage/ids.ts";
import { agentRuns, deployments, projects } from "../storage/schema.ts";
import { writeDeploymentTree, type TreeFile } from "./builds.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { runNotFound } from "./agent-run-shape.ts";
import { findProject, foundInProject, touchedAt, withProjectLocked } from "./projects.ts";
import { contractFields, errorOf } from "./contract-fields.ts";
import { inPartition, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";
import { findVersion, latestVersion } from "./versions.ts";
import type { WorkQueue } from "./work-queue.ts";

type DeploymentRow = typeof deployments.$inferSelect;

/** The statuses a deployment may be rolled back to: it was served once. */
const servedStatuses: SchemaDeploymentStatus[] = ["ready", "superseded"];
/** The statuses the worker may still move a deployment out of. */
const pendingStatuses: SchemaDeploymentStatus[] = ["queued", "building"];

/**
 * The DNS label of a deployment's own origin: the project's name made hostname-safe, and random
 * characters so that no two deployments share an origin (and none can be guessed from another).
 */
export function deploymentLabel(projectName: string): string {
  const slug = projectName
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return `${slug || "app"}-${randomBase36(10)}`;
}

export function toDeployment(row: DeploymentRow): SchemaDeployment {
  return {
    ...contractFields(row, ["id", "projectId", "runId"]),
    // Null only on a deployment the previous release queued during an upgrade, until it builds
    // (startDeploymentBuild): then it is named by its run alone.
    version_id: row.versionId ?? "",
    ...contractFields(row, ["target", "status", "url", "rollbackOf"]),
    error: errorOf(row),
    ...contractFields(row, ["createdAt", "readyAt", "updatedAt"]),
  };
}

/**
 * Queues a deployment and its build job. One build at a time per project and target: while one is
 * queued or building, another is a conflict (their order of publication would be a race).
 */
async function insertQueued(
  tx: Queryable,
  work: WorkQueue,
  partition: Partition,
  project: { id: string; name: string },
  values: { runId: string | null; versionId: string; target: SchemaDeploymentTarget; rollbackOf: string | null },
): Promise<SchemaDeployment> {
  const [pending] = await tx
    .select({ id: deployments.id })
    .from(deployments)
    .where(
      and(
        eq(deployments.projectId, project.id),
        eq(deployments.target, values.target),
        inArray(deployments.status, pendingStatuses),
      ),
    )
    .limit(1);
  if (pending) {
    throw new ConflictError(
      `Deployment ${pending.id} of this project's ${values.target} target is still building; wait for it to finish.`,
    );
  }
  const now = new Date();
  const row = await tx
    .insert(deployments)
    .values({
      id: newId("dpl"),
      ...partition,
      projectId: project.id,
      ...values,
      label: deploymentLabel(project.name),
      status: "queued",
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .then(([first]) => first!);
  await work.queueDeploymentBuild(tx, row.id);
  const queued = toDeployment(row);
  await recordEvent(tx, partition, "deployment.queued", queued);
  return queued;
}

/**
 * Queues a deployment of a version: `version_id`, the version `run_id` recorded, or the project's
 * latest. A run that recorded no version, or a project with none yet, is a conflict.
 */
export async function createDeployment(
  db: Database,
  work: WorkQueue,
  partition: Partition,
  projectId: string,
  input: SchemaCreateDeploymentRequest | undefined,
  commit: Commit<SchemaDeployment> = inTransaction(db),
): Promise<SchemaDeployment> {
  if (input?.run_id !== undefined && input.version_id !== undefined) {
    throw new InvalidInputError("Send `version_id` or `run_id`, not both.", "version_id");
  }
  return withProjectLocked(commit, partition, projectId, async (tx, project) => {
    let version: { id: string; agentRunId: string | null };
    if (input?.version_id !== undefined) {
      version = await findVersion(tx, partition, projectId, input.version_id);
    } else if (input?.run_id !== undefined) {
      const [run] = await tx
        .select({ id: agentRuns.id, status: agentRuns.status, versionId: agentRuns.versionId })
        .from(agentRuns)
        .where(
          and(inPartition(agentRuns, partition), eq(agentRuns.projectId, projectId), eq(agentRuns.id, input.run_id)),
        );
      if (!run) throw runNotFound(projectId, input.run_id);
      if (run.status !== "succeeded") {
        throw new ConflictError(
          `Agent run ${run.id} is ${run.status}; only a succeeded run can be deployed.`,
          "run_id",
        );
      }
      if (!run.versionId) {
        throw new ConflictError(
          `Agent run ${run.id} changed no file and recorded no version; deploy a version (version_id) instead.`,
          "run_id",
        );
      }
      version = { id: run.versionId, agentRunId: run.id };
    } else {
      const latest = await latestVersion(tx, projectId);
      if (!latest) throw new ConflictError(`Project ${projectId} has no version to deploy yet.`);
      version = latest;
    }
    return insertQueued(tx, work, partition, project, {
      runId: version.agentRunId,
      versionId: version.id,
      target: input?.target ?? "production",
      rollbackOf: null,
    });
  });
}

async function findDeployment(
  db: Queryable,
  partition: Partition,
  projectId: string,
  deploymentId: string,
): Promise<DeploymentRow> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(
      and(inPartition(deployments, partition), eq(deployments.projectId, projectId), eq(deployments.id, deploymentId)),
    );
  return foundInProject(
    db,
    partition,
    projectId,
    row,
    () => new NotFoundError(`No deployment ${deploymentId} in project ${projectId}.`, "deployment_id"),
  );
}

export async function getDeployment(
  db: Database,
  partition: Partition,
  projectId: string,
  deploymentId: string,
): Promise<SchemaDeployment> {
  return toDeployment(await findDeployment(db, partition, projectId, deploymentId));
}

export interface DeploymentFilters {
  target?: SchemaDeploymentTarget;
  status?: SchemaDeploymentStatus;
}

/** The project's deployments, newest first. */
export async function listDeployments(
  db: Database,
  partition: Partition,
  projectId: string,
  page: PageRequest,
  filters: DeploymentFilters,
): Promise<Page<SchemaDeployment>> {
  await findProject(db, partition, projectId);
  const where = and(
    eq(deployments.projectId, projectId),
    filters.target ? eq(deployments.target, filters.target) : undefined,
    filters.status ? eq(deployments.status, filters.status) : undefined,
  );
  return listPage(db, deployments, where, page, toDeployment);
}

/**
 * Rolls the target back to an earlier deployment: queues a new deployment of the same run and
 * target with `rollback_of` naming it. Only a deployment that was served (ready or superseded) can
 * be rolled back to.
 */
export async function rollbackDeployment(
  db: Database,
  work: WorkQueue,
  partition: Partition,
  projectId: string,
  deploymentId: string,
  commit: Commit<SchemaDeployment> = inTransaction(db),
): Promise<SchemaDeployment> {
  return withProjectLocked(commit, partition, projectId, async (tx, project) => {
    const earlier = await findDeployment(tx, partition, projectId, deploymentId);
    if (!servedStatuses.includes(earlier.status)) {
      throw new ConflictError(
        `Deployment ${deploymentId} is ${earlier.status}; only a deployment that was ready (now ready or superseded) can be rolled back to.`,
        "deployment_id",
      );
    }
    return insertQueued(tx, work, partition, project, {
      runId: earlier.runId,
      versionId: earlier.versionId ?? (await versionOfRun(tx, earlier.runId)),
      target: earlier.target,
      rollbackOf: earlier.id,
    });
  });
}

// --- Progress, for the deployment worker (no partition: the worker acts on every workspace). ---

/** What the worker needs to build a deployment. */
export interface DeploymentJob {
  readonly deployment: SchemaDeployment;
  readonly label: string;
}

/** The deployment row, locked, if the worker may still move it; undefined otherwise. */
async function lockPending(tx: Queryable, deploymentId: string): Promise<DeploymentRow | undefined> {
  const [row] = await tx.select().from(deployments).where(eq(deployments.id, deploymentId)).for("update");
  return row && pendingStatuses.includes(row.status) ? row : undefined;
}

const partitionOf = (row: DeploymentRow): Partition => ({ workspaceId: row.workspaceId, environment: row.environment });

/**
 * queued → building (no event: the contract has none for it). A deployment already building was
 * started by a worker that died: it is handed out again. Undefined when it is no longer pending.
 */
export async function startDeploymentBuild(db: Database, deploymentId: string): Promise<DeploymentJob | undefined> {
  return db.transaction(async (tx) => {
    let row = await lockPending(tx, deploymentId);
    if (!row) return undefined;
    if (row.status === "queued" || !row.label || !row.versionId) {
      // A deployment queued before deployments had labels gets its origin now, and one the previous
      // release queued during an upgrade (naming its run alone) the version that run recorded.
      [row] = await tx
        .update(deployments)
        .set({
          status: "building",
          label: row.label ?? deploymentLabel("app"),
          versionId: row.versionId ?? (await runVersion(tx, row.runId)),
          updatedAt: new Date(),
        })
        .where(eq(deployments.id, deploymentId))
        .returning();
    }
    return { deployment: toDeployment(row!), label: row!.label! };
  });
}

/**
 * building → ready: records the published tree (`writeTree` stores its content inside the same
 * transaction) and the deployment's `url`, in one transaction with the event. The previous ready deployment of the same project and target becomes superseded; a
 * production deployment's url becomes the project's. Undefined when it is no longer pending.
 */
export async function publishDeployment(
  db: Database,
  deploymentId: string,
  writeTree: (tx: Queryable) => Promise<readonly TreeFile[]>,
  url: string,
): Promise<SchemaDeployment | undefined> {
  return db.transaction(async (tx) => {
    // Lock the project first: two deployments of one target becoming ready at once must not both
    // stay ready.
    const [target] = await tx
      .select({ projectId: deployments.projectId })
      .from(deployments)
      .where(eq(deployments.id, deploymentId));
    if (!target) return undefined;
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, target.projectId)).for("update");
    const row = await lockPending(tx, deploymentId);
    if (!row) return undefined;
    const now = new Date();
    await writeDeploymentTree(tx, row.id, await writeTree(tx));
    await tx
      .update(deployments)
      .set({ status: "superseded", updatedAt: now })
      .where(
        and(
          eq(deployments.projectId, row.projectId),
          eq(deployments.target, row.target),
          eq(deployments.status, "ready"),
          ne(deployments.id, row.id),
        ),
      );
    const ready = await tx
      .update(deployments)
      .set({ status: "ready", url, readyAt: now, updatedAt: now })
      .where(eq(deployments.id, row.id))
      .returning()
      .then(([first]) => first!);
    if (row.target === "production") {
      await tx
        .update(projects)
        .set({ url, updatedAt: touchedAt(now) })
        .where(eq(projects.id, row.projectId));
    }
    const result = toDeployment(ready);
    await recordEvent(tx, partitionOf(row), "deployment.ready", result);
    return result;
  });
}

/** queued | building → failed, saying why. What was served before stays served. */
export async function failDeployment(
  db: Database,
  deploymentId: string,
  error: { code: string; message: string },
): Promise<SchemaDeployment | undefined> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, deploymentId);
    if (!row) return undefined;
    const failed = await tx
      .update(deployments)
      .set({
        status: "failed",
        errorCode: error.code,
        errorMessage: error.message.slice(0, 1000),
        updatedAt: new Date(),
      })
      .where(eq(deployments.id, row.id))
      .returning()
      .then(([first]) => first!);
    const result = toDeployment(failed);
    await recordEvent(tx, partitionOf(row), "deployment.failed", result);
    return result;
  });
}

/**
 * A deployment queued before versions were recorded names its run alone: the version that run
 * recorded (the upgrade recorded one for every succeeded run that had a snapshot).
 */
async function versionOfRun(db: Queryable, runId: string | null): Promise<string> {
  const versionId = await runVersion(db, runId);
  if (!versionId) throw new ConflictError(`Agent run ${runId} recorded no version to deploy.`);
  return versionId;
}

/** The version a run recorded, if any. */
async function runVersion(db: Queryable, runId: string | null): Promise<string | null> {
  if (!runId) return null;
  const [run] = await db.select({ versionId: agentRuns.versionId }).from(agentRuns).where(eq(agentRuns.id, runId));
  return run?.versionId ?? null;
}

/** Where a deployment's build comes from: its version's tree, or for a rollback the tree it rolls back to. */
export async function deploymentSource(
  db: Queryable,
  deploymentId: string,
): Promise<{ runId: string | null; versionId: string | null; rollbackOf: string | null } | undefined> {
  const [row] = await db
    .select({ runId: deployments.runId, versionId: deployments.versionId, rollbackOf: deployments.rollbackOf })
    .from(deployments)
    .where(eq(deployments.id, deploymentId));
  return row;
}

/** The deployment served at `label`, with what serving it needs, if it was published and its project exists. */
export async function findPublishedDeployment(
  db: Queryable,
  label: string,
): Promise<{ id: string; projectId: string; visibility: SchemaVisibility } | undefined> {
  const [row] = await db
    .select({ id: deployments.id, projectId: deployments.projectId, visibility: projects.visibility })
    .from(deployments)
    .innerJoin(projects, eq(projects.id, deployments.projectId))
    .where(and(eq(deployments.label, label), inArray(deployments.status, servedStatuses)));
  return row;
}
