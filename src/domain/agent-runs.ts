// Agent runs: queued → running → succeeded | failed; queued or running → canceled. A project has at
// most one run that is not final, and its status mirrors its most recent run. The API queues runs;
// the run worker (src/jobs/agent-run-worker.ts) moves them on with startAgentRun/finishAgentRun,
// each transition committed with its event, and only from the state it expects, so a run retried
// after a crash, or canceled while it ran, still ends exactly once.
import { and, eq, inArray } from "drizzle-orm";
import type {
  SchemaAgentRun,
  SchemaAgentRunAttachment,
  SchemaAgentRunAttachmentRequest,
  SchemaAgentRunStatus,
  SchemaTriggerAgentRunRequest,
} from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { agentRuns, projects, workspaces } from "../storage/schema.ts";
import { creditsLeft } from "./billing.ts";
import { snapshotRun } from "./builds.ts";
import { recordVersion, sameAsLatest } from "./versions.ts";
import { ConflictError, InvalidInputError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { activeStatuses, projectStatusOf, runNotFound, toAgentRun, type AgentRunRow } from "./agent-run-shape.ts";
import { applyFileChanges, committedFilesById, type FileWrite } from "./files.ts";
import { findProject, foundInProject, touchedAt, withProjectLocked } from "./projects.ts";
import type { WorkQueue } from "./work-queue.ts";
import { inPartition, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";

export async function triggerAgentRun(
  db: Database,
  work: WorkQueue,
  partition: Partition,
  projectId: string,
  input: SchemaTriggerAgentRunRequest,
  commit: Commit<SchemaAgentRun> = inTransaction(db),
): Promise<SchemaAgentRun> {
  return withProjectLocked(commit, partition, projectId, async (tx, project) => {
    const attachments = await attachedFiles(tx, projectId, input.attachments ?? []);
    const [active] = await tx
      .select({ id: agentRuns.id })
      .from(agentRuns)
      .where(and(eq(agentRuns.projectId, projectId), inArray(agentRuns.status, activeStatuses)))
      .limit(1);
    if (active)
      throw new ConflictError(
        `Project ${projectId} already has an active run (${active.id}); wait for it or cancel it.`,
      );
    const now = new Date();
    const run = await tx
      .insert(agentRuns)
      .values({
        id: newId("run"),
        projectId,
        ...partition,
        agent: input.agent ?? project.agent,
        prompt: input.prompt,
        trigger: "api",
        status: "queued",
        maxCredits: input.max_credits ?? null,
        attachments,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .then(([first]) => first!);
    await tx
      .update(projects)
      .set({ status: projectStatusOf[run.status], latestRunId: run.id, updatedAt: touchedAt(now) })
      .where(eq(projects.id, projectId));
    await work.queueAgentRun(tx, run.id);
    const queued = toAgentRun(run);
    await recordEvent(tx, partition, "agent_run.queued", queued);
    return queued;
  });
}

/**
 * The files a run is given, as they are now, in the order asked (an id asked twice counts once).
 * An id that is not a committed file of the project is the caller's mistake: InvalidInputError.
 */
async function attachedFiles(
  tx: Queryable,
  projectId: string,
  asked: readonly SchemaAgentRunAttachmentRequest[],
): Promise<SchemaAgentRunAttachment[]> {
  const ids = [...new Set(asked.map((attachment) => attachment.file_id))];
  const found = new Map((await committedFilesById(tx, projectId, ids)).map((row) => [row.id, row]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new InvalidInputError(
      `No file ${missing.join(", ")} in project ${projectId}: attach files of the project itself, uploaded in full.`,
      "attachments",
    );
  }
  return ids.map((id) => {
    const row = found.get(id)!;
    return { file_id: row.id, path: row.path, content_type: row.contentType, size_bytes: row.sizeBytes };
  });
}

export async function getAgentRun(
  db: Database,
  partition: Partition,
  projectId: string,
  runId: string,
): Promise<SchemaAgentRun> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(inPartition(agentRuns, partition), eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId)));
  return toAgentRun(await foundInProject(db, partition, projectId, row, () => runNotFound(projectId, runId)));
}

export async function listAgentRuns(
  db: Database,
  partition: Partition,
  projectId: string,
  page: PageRequest,
  filters: { status?: SchemaAgentRunStatus },
): Promise<Page<SchemaAgentRun>> {
  await findProject(db, partition, projectId);
  const where = and(
    eq(agentRuns.projectId, projectId),
    filters.status ? eq(agentRuns.status, filters.status) : undefined,
  );
  return listPage(db, agentRuns, where, page, toAgentRun);
}

/** Cancels a queued or running run; cancelling a canceled run is a no-op; a finished run is a conflict. */
export async function cancelAgentRun(
  db: Database,
  partition: Partition,
  projectId: string,
  runId: string,
): Promise<SchemaAgentRun> {
  return withProjectLocked(inTransaction(db), partition, projectId, async (tx, project) => {
    const [row] = await tx
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId)));
    if (!row) throw runNotFound(projectId, runId);
    if (row.status === "canceled") return toAgentRun(row);
    if (!activeStatuses.includes(row.status))
      throw new ConflictError(`Agent run ${runId} already ${row.status}; only queued or running runs can be canceled.`);
    const now = new Date();
    const canceled = await tx
      .update(agentRuns)
      .set({ status: "canceled", finishedAt: now, updatedAt: now })
      .where(eq(agentRuns.id, runId))
      .returning()
      .then(([first]) => first!);
    if (project.latestRunId === runId) {
      await tx
        .update(projects)
        .set({ status: projectStatusOf[canceled.status], updatedAt: touchedAt(now) })
        .where(eq(projects.id, projectId));
    }
    const result = toAgentRun(canceled);
    await recordEvent(tx, partition, "agent_run.canceled", result);
    return result;
  });
}

// --- Progress, for the run worker (no partition: the worker acts on every workspace). ---

/** What a worker needs to carry out a run it has started. */
export interface StartedRun {
  readonly run: SchemaAgentRun;
  readonly partition: Partition;
  readonly project: { readonly id: string; readonly name: string; readonly template: Project["template"] };
  /** Credits the partition has left this period; Infinity for test data, which is never charged. */
  readonly creditsLeft: number;
  /** When the run first started: its time limit counts from here, across retries. */
  readonly startedAt: Date;
}

type Project = typeof projects.$inferSelect;

/**
 * Moves a queued run to `running` (event `agent_run.started`) and answers what the worker needs.
 * A run already `running` was started by a worker that died: it is handed out again as it is.
 * Answers undefined for a run that is final (canceled while queued, or finished by another worker).
 * A run that cannot afford `requiredCredits` fails here, before any agent: `budget_exceeded` when
 * its `max_credits` is less, else `insufficient_credits` when the workspace's credits left are.
 */
export async function startAgentRun(
  db: Database,
  runId: string,
  requiredCredits: (agent: SchemaAgentRun["agent"]) => number,
  now = new Date(),
): Promise<StartedRun | undefined> {
  return db.transaction(async (tx) => {
    const row = await lockRunWithProject(tx, runId);
    if (!row || !activeStatuses.includes(row.run.status)) return undefined;
    const partition = partitionOf(row.run);
    // Starts in one workspace take turns, so two runs cannot both pass the check on the same credits.
    // NO KEY UPDATE, not UPDATE: the turn must not hold up the rows that merely reference the
    // workspace (a create's project, run and events take KEY SHARE on it for their foreign keys).
    await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, partition.workspaceId))
      .for("no key update");
    let run = row.run;
    const reserved = run.status === "running" ? run.creditsUsed : 0;
    const left =
      partition.environment === "test" ? Number.POSITIVE_INFINITY : (await creditsLeft(tx, partition, now)) + reserved;
    if (run.status === "queued") {
      // A price known before the run (the built-in agent's) that passes the run's own budget ends
      // it here, whatever the workspace's credits; test data too, so budgets can be tried with
      // test keys.
      if (run.maxCredits !== null && requiredCredits(run.agent) > run.maxCredits) {
        await finish(tx, row.run, row.project, now, {
          status: "failed",
          error: {
            code: "budget_exceeded",
            message: `This run needs ${requiredCredits(run.agent)} credits; its max_credits is ${run.maxCredits}.`,
          },
        });
        return undefined;
      }
      if (left < requiredCredits(run.agent)) {
        await finish(tx, row.run, row.project, now, {
          status: "failed",
          error: {
            code: "insufficient_credits",
            message: `The workspace has ${left} credits left this period; this run needs at least ${requiredCredits(run.agent)}.`,
          },
        });
        return undefined;
      }
      // What the run needs at least is reserved while it runs (running runs count as used), and
      // replaced by its real charge when it finishes.
      const reserve = partition.environment === "test" ? 0 : requiredCredits(run.agent);
      run = await tx
        .update(agentRuns)
        .set({ status: "running", startedAt: now, updatedAt: now, creditsUsed: reserve })
        .where(eq(agentRuns.id, runId))
        .returning()
        .then(([first]) => first!);
      if (row.project.latestRunId === runId) {
        await tx
          .update(projects)
          .set({ status: projectStatusOf.running, updatedAt: touchedAt(now) })
          .where(eq(projects.id, row.project.id));
      }
      await recordEvent(tx, partition, "agent_run.started", toAgentRun(run));
    }
    return {
      run: toAgentRun(run),
      partition,
      project: { id: row.project.id, name: row.project.name, template: row.project.template },
      creditsLeft: left,
      startedAt: run.startedAt ?? now,
    };
  });
}

/** How a run ended, as the worker reports it. */
export type RunOutcome =
  | {
      readonly status: "succeeded";
      readonly changes: { readonly writes: readonly FileWrite[]; readonly deletes: readonly string[] };
      readonly summary: string;
      readonly credits: number;
    }
  | {
      readonly status: "failed";
      readonly error: { readonly code: string; readonly message: string };
      readonly credits?: number;
    };

/**
 * running → succeeded | failed, with the event, in one transaction. On success the agent's file
 * changes are applied to the project and the project's files are recorded as the run's snapshot.
 * Answers undefined, changing nothing, when the run is no longer running (it was canceled meanwhile
 * or another worker finished it): the first final status stands.
 */
export async function finishAgentRun(
  db: Database,
  runId: string,
  outcome: RunOutcome,
  now = new Date(),
): Promise<SchemaAgentRun | undefined> {
  return db.transaction(async (tx) => {
    const row = await lockRunWithProject(tx, runId);
    if (!row || row.run.status !== "running") return undefined;
    return finish(tx, row.run, row.project, now, outcome);
  });
}

/**
 * Ends a queued or running run as failed `internal_error`: for a run whose job has failed every
 * retry (storage unreachable for long), so that it does not stay running forever.
 */
export async function abandonAgentRun(
  db: Database,
  runId: string,
  now = new Date(),
): Promise<SchemaAgentRun | undefined> {
  return db.transaction(async (tx) => {
    const row = await lockRunWithProject(tx, runId);
    if (!row || !activeStatuses.includes(row.run.status)) return undefined;
    return finish(tx, row.run, row.project, now, {
      status: "failed",
      error: { code: "internal_error", message: "The run could not be carried out; trigger it again." },
    });
  });
}

/** Charges a canceled run for what its model used before the cancel stopped it (no event). */
export async function chargeCanceledRun(db: Database, runId: string, credits: number): Promise<void> {
  if (credits <= 0) return;
  await db
    .update(agentRuns)
    .set({ creditsUsed: credits })
    .where(and(eq(agentRuns.id, runId), eq(agentRuns.status, "canceled"), eq(agentRuns.environment, "live")));
}

/** The run's status now, for a worker watching for a cancel made elsewhere. */
export async function agentRunStatus(db: Queryable, runId: string): Promise<SchemaAgentRunStatus | undefined> {
  const [row] = await db.select({ status: agentRuns.status }).from(agentRuns).where(eq(agentRuns.id, runId));
  return row?.status;
}

const partitionOf = (row: AgentRunRow): Partition => ({ workspaceId: row.workspaceId, environment: row.environment });

/** The run and its project, both locked, the project first (the order every writer of a project's runs takes). */
async function lockRunWithProject(
  tx: Queryable,
  runId: string,
): Promise<{ run: AgentRunRow; project: Project } | undefined> {
  const [target] = await tx.select({ projectId: agentRuns.projectId }).from(agentRuns).where(eq(agentRuns.id, runId));
  if (!target) return undefined;
  const [project] = await tx.select().from(projects).where(eq(projects.id, target.projectId)).for("update");
  const [run] = await tx.select().from(agentRuns).where(eq(agentRuns.id, runId)).for("update");
  return project && run ? { run, project } : undefined;
}

async function finish(
  tx: Queryable,
  run: AgentRunRow,
  project: Project,
  now: Date,
  outcome: RunOutcome,
): Promise<SchemaAgentRun> {
  const partition = partitionOf(run);
  // Test data is never charged; no run is charged past its own budget.
  const credits =
    partition.environment === "test"
      ? 0
      : Math.min(Math.max(0, Math.ceil(outcome.credits ?? 0)), run.maxCredits ?? Number.POSITIVE_INFINITY);
  let versionId: string | null = null;
  if (outcome.status === "succeeded") {
    await applyFileChanges(tx, partition, project.id, outcome.changes);
    const snapshot = await snapshotRun(tx, project.id, run.id);
    // A run that left the files as the latest version has them records no version; the version's
    // tree is the snapshot just taken (its blobs stored already), not a second one.
    if (!(await sameAsLatest(tx, project.id, snapshot))) {
      const version = await recordVersion(
        tx,
        partition,
        project.id,
        { source: "agent_run", agentRunId: run.id, message: outcome.summary },
        snapshot,
      );
      versionId = version.id;
    }
  }
  const finished = await tx
    .update(agentRuns)
    .set({
      status: outcome.status,
      creditsUsed: credits,
      errorCode: outcome.status === "failed" ? outcome.error.code : null,
      errorMessage: outcome.status === "failed" ? outcome.error.message.slice(0, 1000) : null,
      summary: outcome.status === "succeeded" ? outcome.summary.slice(0, 1000) : null,
      versionId,
      startedAt: run.startedAt ?? now,
      finishedAt: now,
      updatedAt: now,
    })
    .where(eq(agentRuns.id, run.id))
    .returning()
    .then(([first]) => first!);
  if (project.latestRunId === run.id) {
    await tx
      .update(projects)
      .set({ status: projectStatusOf[finished.status], updatedAt: touchedAt(now) })
      .where(eq(projects.id, project.id));
  }
  const result = toAgentRun(finished);
  await recordEvent(tx, partition, outcome.status === "succeeded" ? "agent_run.succeeded" : "agent_run.failed", result);
  return result;
}
