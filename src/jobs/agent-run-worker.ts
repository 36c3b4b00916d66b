// Carries out one agent run: starts it (queued → running), gives the agent the project's files and
// those attached to the prompt, a time limit, a cancel signal and a credit meter (held to the
// workspace's credits left and the run's max_credits), and finishes it (→ succeeded | failed) with
// the agent's file changes in one transaction. The agent writes only to a WorkingTree in memory, so
// a run that fails, times out or is canceled leaves the project's files as they were.
//
// Exactly one end: startAgentRun and finishAgentRun move the run only from the state they expect.
// A cancel made through the API (by any replica) records `agent_run.canceled`, whose notification
// (events_recorded, for the run's workspace) has the run's status read here, and aborts the agent
// at once; a slow poll of the status stays as the net under lost notifications; a retry after a crash finds the run `running` and does it again from
// the files it started with, within what is left of its time limit.
import type { Logger } from "pino";
import type { SchemaAgentRunAttachment } from "../../generated/schema.d.ts";
import {
  AgentError,
  BudgetExceededError,
  InsufficientCreditsError,
  type Agent,
  type AgentAttachment,
  type UsageMeter,
} from "../agents/agent.ts";
import { WorkingTree, type StoredFile } from "../agents/working-tree.ts";
import {
  agentRunStatus,
  chargeCanceledRun,
  finishAgentRun,
  startAgentRun,
  type RunOutcome,
} from "../domain/agent-runs.ts";
import { recordRunProgress } from "../domain/agent-run-progress.ts";
import { projectFiles } from "../domain/files.ts";
import { mediaTypeFor } from "../domain/media-types.ts";
import { BUILTIN_RUN_CREDITS, TOKENS_PER_CREDIT } from "../domain/plans.ts";
import type { Database } from "../storage/index.ts";
import { EVENTS_RECORDED, type ChangeFeed } from "../storage/notifications.ts";
import { formatDuration } from "./format-duration.ts";

export interface AgentRunWorkerOptions {
  readonly db: Database;
  readonly agent: Agent;
  /** The longest a run may take, counted from its first start. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  /** The database's change feed: a running run's status is read when its partition records events. */
  readonly changes?: ChangeFeed;
  /**
   * How often a running run's status is read regardless, to notice a cancel whose notification was
   * lost (default 5 s with a change feed, 500 ms without).
   */
  readonly cancelCheckMs?: number;
}

export function createAgentRunWorker(options: AgentRunWorkerOptions) {
  const { db, agent, logger } = options;
  const priced = agent.kind === "builtin";
  /** What a run must be able to afford before its agent is called. */
  const requiredCredits = (agentValue: keyof typeof BUILTIN_RUN_CREDITS) =>
    priced ? BUILTIN_RUN_CREDITS[agentValue] : 1;

  return async function carryOut(runId: string): Promise<void> {
    const started = await startAgentRun(db, runId, requiredCredits);
    if (!started) return;
    const log = logger.child({ run_id: runId });
    const controller = new AbortController();
    const elapsed = Date.now() - started.startedAt.getTime();
    const limit = setTimeout(
      () =>
        controller.abort(
          new AgentError("timeout", `The run passed its time limit of ${formatDuration(options.timeoutMs)}.`),
        ),
      Math.max(0, options.timeoutMs - elapsed),
    );
    // One read in flight at a time (a busy workspace records many events); a notification during a
    // read asks for one more after it, which sees any cancel committed meanwhile.
    let reading = false;
    let readAgain = false;
    const checkStatus = (): void => {
      if (reading) {
        readAgain = true;
        return;
      }
      reading = true;
      agentRunStatus(db, runId)
        .then(
          (status) => {
            if (status !== "running") controller.abort(new AgentError("canceled", "The run was canceled."));
          },
          (error: unknown) => log.warn({ err: error }, "could not read the run's status"),
        )
        .finally(() => {
          reading = false;
          if (readAgain && !controller.signal.aborted) {
            readAgain = false;
            checkStatus();
          }
        });
    };
    const partitionKey = `${started.partition.workspaceId}:${started.partition.environment}`;
    const unsubscribe = options.changes?.subscribe(
      { changed: (partition) => partition === partitionKey && checkStatus(), gap: checkStatus },
      EVENTS_RECORDED,
    );
    const watch = setInterval(checkStatus, options.cancelCheckMs ?? (options.changes ? 5000 : 500));
    // The run's own budget, when it has one, is the other limit of what its model may use.
    const budget = started.run.max_credits ?? Number.POSITIVE_INFINITY;
    const meter = tokenMeter(started.creditsLeft, budget);
    const cost = () =>
      priced ? BUILTIN_RUN_CREDITS[started.run.agent] : Math.min(Math.ceil(meter.tokens / TOKENS_PER_CREDIT), budget);

    // Progress events are recorded one after another, and all before the run's end, so a stream
    // shows them in order and before `agent_run.succeeded`. One that cannot be recorded is only logged.
    let progressed = Promise.resolve();
    const progress = (files: WorkingTree) => (message: string) => {
      const paths = files.changes().writes.map((write) => write.path);
      progressed = progressed
        .then(() =>
          recordRunProgress(db, started.partition, {
            agent_run_id: runId,
            project_id: started.project.id,
            message,
            paths,
          }),
        )
        .catch((error: unknown) => log.warn({ err: error }, "could not record the run's progress"));
    };

    let outcome: RunOutcome;
    try {
      const stored = await projectFiles(db, started.project.id);
      const files = new WorkingTree(stored);
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
      });
      // Raced with the signal, so an agent that ignores it still cannot hold the run.
      const result = await Promise.race([
        agent.run({
          agent: started.run.agent,
          prompt: started.run.prompt,
          project: started.project,
          initial: started.run.trigger === "project_created",
          files,
          attachments: attachmentsOf(started.run.attachments, stored),
          signal: controller.signal,
          meter,
          progress: progress(files),
        }),
        aborted,
      ]);
      outcome = { status: "succeeded", changes: files.changes(), summary: result.summary, credits: cost() };
    } catch (thrown) {
      const error: unknown = controller.signal.aborted ? controller.signal.reason : thrown;
      if (error instanceof AgentError && error.code === "canceled") {
        // The cancel already ended the run; the tokens its model used are still owed.
        await progressed;
        if (!priced) await chargeCanceledRun(db, runId, cost());
        log.info("run canceled");
        return;
      }
      const credits = Math.min(cost(), started.creditsLeft);
      if (error instanceof AgentError) {
        outcome = {
          status: "failed",
          error: { code: error.code, message: error.message },
          credits: priced ? 0 : credits,
        };
      } else {
        log.error({ err: error }, "agent failed unexpectedly");
        outcome = {
          status: "failed",
          error: { code: "agent_error", message: "The agent failed unexpectedly." },
          credits: priced ? 0 : credits,
        };
      }
    } finally {
      clearTimeout(limit);
      clearInterval(watch);
      unsubscribe?.();
    }
    await progressed;
    const finished = await finishAgentRun(db, runId, outcome);
    log.info({ status: finished?.status ?? "already final" }, "run finished");
  };
}

/**
 * Counts tokens; once they pass what `creditsLeft` or the run's `budget` (credits) pay for, throws
 * the error of the lower of the two: BudgetExceededError or InsufficientCreditsError.
 */
function tokenMeter(creditsLeft: number, budget: number): UsageMeter {
  let tokens = 0;
  return {
    get tokens() {
      return tokens;
    },
    addTokens(count) {
      tokens += Math.max(0, Math.floor(count));
      if (tokens <= Math.min(creditsLeft, budget) * TOKENS_PER_CREDIT) return;
      throw budget <= creditsLeft
        ? new BudgetExceededError(`The run would use more than its max_credits of ${budget}.`)
        : new InsufficientCreditsError();
    },
  };
}

/**
 * The run's attachments as the agent gets them: the files at their paths as the run starts. One no
 * longer there (deleted since the run was triggered) is left out.
 */
function attachmentsOf(
  attached: readonly SchemaAgentRunAttachment[],
  stored: readonly StoredFile[],
): AgentAttachment[] {
  const byPath = new Map(stored.map((file) => [file.path, file]));
  return attached.flatMap((attachment) => {
    const file = byPath.get(attachment.path);
    if (!file) return [];
    return [
      {
        path: file.path,
        contentType: mediaTypeFor(file.path, file.contentType),
        sizeBytes: file.sizeBytes,
        read: () => file.read(),
      },
    ];
  });
}
