// Agent runs: queued → running → succeeded | failed; queued or running → canceled. A project has at
// most one run that is not final, and its status mirrors its most recent run.
import { and, eq, inArray } from "drizzle-orm";
import type {
  SchemaAgentRun,
  SchemaAgentRunStatus,
  SchemaProjectStatus,
  SchemaTriggerAgentRunRequest,
} from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { agentRuns, projects } from "../storage/schema.ts";
import { ConflictError, NotFoundError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { findProject } from "./projects.ts";
import { inPartition, iso, isoOrNull, keyset, toPage, type Page, type PageRequest, type Partition } from "./partition.ts";

type AgentRunRow = typeof agentRuns.$inferSelect;

const activeStatuses: SchemaAgentRunStatus[] = ["queued", "running"];

/** The project status that mirrors a run's status. */
export const projectStatusOf: Record<SchemaAgentRunStatus, SchemaProjectStatus> = {
  queued: "queued",
  running: "building",
  succeeded: "ready",
  failed: "failed",
  canceled: "canceled",
};

export function toAgentRun(row: AgentRunRow): SchemaAgentRun {
  return {
    id: row.id,
    project_id: row.projectId,
    agent: row.agent,
    prompt: row.prompt,
    trigger: row.trigger,
    status: row.status,
    credits_used: row.creditsUsed,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
    created_at: iso(row.createdAt),
    started_at: isoOrNull(row.startedAt),
    finished_at: isoOrNull(row.finishedAt),
    updated_at: iso(row.updatedAt),
  };
}

export async function triggerAgentRun(
  db: Database,
  partition: Partition,
  projectId: string,
  input: SchemaTriggerAgentRunRequest,
): Promise<SchemaAgentRun> {
  return db.transaction(async (tx) => {
    const project = await findProject(tx, partition, projectId, { lock: true });
    const [active] = await tx
      .select({ id: agentRuns.id })
      .from(agentRuns)
      .where(and(eq(agentRuns.projectId, projectId), inArray(agentRuns.status, activeStatuses)))
      .limit(1);
    if (active) throw new ConflictError(`Project ${projectId} already has an active run (${active.id}); wait for it or cancel it.`);
    const now = new Date();
    const [run] = await tx
      .insert(agentRuns)
      .values({
        id: newId("run"),
        projectId,
        ...partition,
        agent: input.agent ?? project.agent,
        prompt: input.prompt,
        trigger: "api",
        status: "queued",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.update(projects).set({ status: projectStatusOf[run.status], latestRunId: run.id, updatedAt: now }).where(eq(projects.id, projectId));
    const queued = toAgentRun(run);
    await recordEvent(tx, partition, "agent_run.queued", queued);
    return queued;
  });
}

export async function getAgentRun(db: Database, partition: Partition, projectId: string, runId: string): Promise<SchemaAgentRun> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(inPartition(agentRuns, partition), eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId)));
  if (!row) throw new NotFoundError(`No agent run ${runId} in project ${projectId}.`, "run_id");
  return toAgentRun(row);
}

export async function listAgentRuns(
  db: Database,
  partition: Partition,
  projectId: string,
  page: PageRequest,
  filters: { status?: SchemaAgentRunStatus },
): Promise<Page<SchemaAgentRun>> {
  await findProject(db, partition, projectId);
  const { after, orderBy, limit } = keyset(agentRuns, page);
  const rows = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.projectId, projectId), filters.status ? eq(agentRuns.status, filters.status) : undefined, after))
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toAgentRun);
}

/** Cancels a queued or running run; cancelling a canceled run is a no-op; a finished run is a conflict. */
export async function cancelAgentRun(db: Database, partition: Partition, projectId: string, runId: string): Promise<SchemaAgentRun> {
  return db.transaction(async (tx) => {
    const project = await findProject(tx, partition, projectId, { lock: true });
    const [row] = await tx.select().from(agentRuns).where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId)));
    if (!row) throw new NotFoundError(`No agent run ${runId} in project ${projectId}.`, "run_id");
    if (row.status === "canceled") return toAgentRun(row);
    if (!activeStatuses.includes(row.status)) throw new ConflictError(`Agent run ${runId} already ${row.status}; only queued or running runs can be canceled.`);
    const now = new Date();
    const [canceled] = await tx
      .update(agentRuns)
      .set({ status: "canceled", finishedAt: now, updatedAt: now })
      .where(eq(agentRuns.id, runId))
      .returning();
    if (project.latestRunId === runId) {
      await tx.update(projects).set({ status: projectStatusOf[canceled.status], updatedAt: now }).where(eq(projects.id, projectId));
    }
    const result = toAgentRun(canceled);
    await recordEvent(tx, partition, "agent_run.canceled", result);
    return result;
  });
}
