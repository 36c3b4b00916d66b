// Deployments: a succeeded agent run's build served at a target. queued → building → ready | failed;
// when a newer deployment of the same target becomes ready, the previous ready one is superseded.
// A rollback is a new deployment of an earlier build (`rollback_of`), never a revived record.
// The API only queues deployments; the worker moves them on with the mark* functions below.
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type {
  SchemaCreateDeploymentRequest,
  SchemaDeployment,
  SchemaDeploymentStatus,
  SchemaDeploymentTarget,
} from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { agentRuns, deployments, projects } from "../storage/schema.ts";
import { ConflictError, NotFoundError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { findProject } from "./projects.ts";
import { inPartition, iso, isoOrNull, keyset, toPage, type Page, type PageRequest, type Partition } from "./partition.ts";

type DeploymentRow = typeof deployments.$inferSelect;

/** The statuses a deployment may be rolled back to: it was served once. */
const servedStatuses: SchemaDeploymentStatus[] = ["ready", "superseded"];
/** The statuses the worker may still move a deployment out of. */
const pendingStatuses: SchemaDeploymentStatus[] = ["queued", "building"];

export const APP_DOMAIN = "project-builder.app";

/**
 * The address a project's production deployment is served at. Ids are lowercased (hostnames are
 * case-insensitive) and `_` becomes `-`, since an underscore is not valid in a hostname.
 */
export function productionUrl(projectId: string): string {
  return `https://${hostLabel(projectId)}.${APP_DOMAIN}`;
}

/** The address of its own that a preview deployment gets. */
export function previewUrl(deploymentId: string): string {
  return `https://${hostLabel(deploymentId)}.preview.${APP_DOMAIN}`;
}

const hostLabel = (id: string) => id.toLowerCase().replaceAll("_", "-");

export function toDeployment(row: DeploymentRow): SchemaDeployment {
  return {
    id: row.id,
    project_id: row.projectId,
    run_id: row.runId,
    target: row.target,
    status: row.status,
    url: row.url,
    rollback_of: row.rollbackOf,
    created_at: iso(row.createdAt),
    ready_at: isoOrNull(row.readyAt),
    updated_at: iso(row.updatedAt),
  };
}

async function insertQueued(
  db: Database,
  partition: Partition,
  values: { projectId: string; runId: string; target: SchemaDeploymentTarget; rollbackOf: string | null },
): Promise<SchemaDeployment> {
  const now = new Date();
  const [row] = await db
    .insert(deployments)
    .values({ id: newId("dpl"), ...partition, ...values, status: "queued", createdAt: now, updatedAt: now })
    .returning();
  const queued = toDeployment(row);
  await recordEvent(db, partition, "deployment.queued", queued);
  return queued;
}

/**
 * Queues a deployment of a succeeded run: `run_id`, or the project's latest succeeded run. A run
 * that did not succeed, or a project with no succeeded run, is a conflict.
 */
export async function createDeployment(
  db: Database,
  partition: Partition,
  projectId: string,
  input: SchemaCreateDeploymentRequest | undefined,
): Promise<SchemaDeployment> {
  return db.transaction(async (tx) => {
    await findProject(tx, partition, projectId);
    let runId: string;
    if (input?.run_id !== undefined) {
      const [run] = await tx
        .select({ id: agentRuns.id, status: agentRuns.status })
        .from(agentRuns)
        .where(and(inPartition(agentRuns, partition), eq(agentRuns.projectId, projectId), eq(agentRuns.id, input.run_id)));
      if (!run) throw new NotFoundError(`No agent run ${input.run_id} in project ${projectId}.`, "run_id");
      if (run.status !== "succeeded") {
        throw new ConflictError(`Agent run ${run.id} is ${run.status}; only a succeeded run can be deployed.`, "run_id");
      }
      runId = run.id;
    } else {
      const [latest] = await tx
        .select({ id: agentRuns.id })
        .from(agentRuns)
        .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.status, "succeeded")))
        .orderBy(desc(agentRuns.createdAt), desc(agentRuns.id))
        .limit(1);
      if (!latest) throw new ConflictError(`Project ${projectId} has no succeeded agent run to deploy yet.`);
      runId = latest.id;
    }
    return insertQueued(tx, partition, { projectId, runId, target: input?.target ?? "production", rollbackOf: null });
  });
}

async function findDeployment(db: Database, partition: Partition, projectId: string, deploymentId: string): Promise<DeploymentRow> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(and(inPartition(deployments, partition), eq(deployments.projectId, projectId), eq(deployments.id, deploymentId)));
  if (!row) {
    // Tell an unknown project from an unknown deployment, as the other lookups do.
    await findProject(db, partition, projectId);
    throw new NotFoundError(`No deployment ${deploymentId} in project ${projectId}.`, "deployment_id");
  }
  return row;
}

export async function getDeployment(db: Database, partition: Partition, projectId: string, deploymentId: string): Promise<SchemaDeployment> {
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
  const { after, orderBy, limit } = keyset(deployments, page);
  const rows = await db
    .select()
    .from(deployments)
    .where(
      and(
        eq(deployments.projectId, projectId),
        filters.target ? eq(deployments.target, filters.target) : undefined,
        filters.status ? eq(deployments.status, filters.status) : undefined,
        after,
      ),
    )
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toDeployment);
}

/**
 * Rolls the target back to an earlier deployment: queues a new deployment of the same run and
 * target with `rollback_of` naming it. Only a deployment that was served (ready or superseded) can
 * be rolled back to.
 */
export async function rollbackDeployment(db: Database, partition: Partition, projectId: string, deploymentId: string): Promise<SchemaDeployment> {
  return db.transaction(async (tx) => {
    const earlier = await findDeployment(tx, partition, projectId, deploymentId);
    if (!servedStatuses.includes(earlier.status)) {
      throw new ConflictError(
        `Deployment ${deploymentId} is ${earlier.status}; only a deployment that was ready (now ready or superseded) can be rolled back to.`,
        "deployment_id",
      );
    }
    return insertQueued(tx, partition, { projectId, runId: earlier.runId, target: earlier.target, rollbackOf: earlier.id });
  });
}

// --- Progress, for the deployment worker (no partition: the worker acts on every workspace). ---

/** The deployment row, locked, if the worker may still move it; a conflict otherwise. */
async function lockPending(tx: Database, deploymentId: string): Promise<DeploymentRow> {
  const [row] = await tx.select().from(deployments).where(eq(deployments.id, deploymentId)).for("update");
  if (!row) throw new NotFoundError(`No deployment ${deploymentId}.`, "deployment_id");
  if (!pendingStatuses.includes(row.status)) throw new ConflictError(`Deployment ${deploymentId} is already ${row.status}.`, "deployment_id");
  return row;
}

const partitionOf = (row: DeploymentRow): Partition => ({ workspaceId: row.workspaceId, environment: row.environment });

/** queued → building. No event: the contract has none for it. */
export async function markDeploymentBuilding(db: Database, deploymentId: string): Promise<SchemaDeployment> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, deploymentId);
    if (row.status === "building") return toDeployment(row);
    const [building] = await tx.update(deployments).set({ status: "building", updatedAt: new Date() }).where(eq(deployments.id, deploymentId)).returning();
    return toDeployment(building);
  });
}

/**
 * queued | building → ready. The previous ready deployment of the same project and target becomes
 * superseded; a production deployment serves the project's url, which the project takes on.
 */
export async function markDeploymentReady(db: Database, deploymentId: string): Promise<SchemaDeployment> {
  return db.transaction(async (tx) => {
    // Lock the project first: two deployments of one target becoming ready at once must not both
    // stay ready.
    const [target] = await tx.select({ projectId: deployments.projectId }).from(deployments).where(eq(deployments.id, deploymentId));
    if (!target) throw new NotFoundError(`No deployment ${deploymentId}.`, "deployment_id");
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, target.projectId)).for("update");
    const row = await lockPending(tx, deploymentId);
    const now = new Date();
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
    const url = row.target === "production" ? productionUrl(row.projectId) : previewUrl(row.id);
    const [ready] = await tx
      .update(deployments)
      .set({ status: "ready", url, readyAt: now, updatedAt: now })
      .where(eq(deployments.id, row.id))
      .returning();
    if (row.target === "production") {
      await tx.update(projects).set({ url, updatedAt: now }).where(eq(projects.id, row.projectId));
    }
    const result = toDeployment(ready);
    await recordEvent(tx, partitionOf(row), "deployment.ready", result);
    return result;
  });
}

/** queued | building → failed. What was served before stays served. */
export async function markDeploymentFailed(db: Database, deploymentId: string): Promise<SchemaDeployment> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, deploymentId);
    const [failed] = await tx
      .update(deployments)
      .set({ status: "failed", updatedAt: new Date() })
      .where(and(eq(deployments.id, row.id), inArray(deployments.status, pendingStatuses)))
      .returning();
    const result = toDeployment(failed);
    await recordEvent(tx, partitionOf(row), "deployment.failed", result);
    return result;
  });
}
