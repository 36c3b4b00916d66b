// What the domain asks of the job queue: to queue work in the same transaction as the change that
// calls for it, so a job exists exactly when its run or deployment was committed (no job for a
// rolled-back row, no committed row without its job). src/jobs/ implements it on pg-boss.
import type { Queryable } from "../storage/index.ts";

export interface WorkQueue {
  /** Queues the agent run `runId` for a worker, inside the caller's transaction `tx`. */
  queueAgentRun(tx: Queryable, runId: string): Promise<void>;
  /** Queues the build and publication of deployment `deploymentId`, inside `tx`. */
  queueDeploymentBuild(tx: Queryable, deploymentId: string): Promise<void>;
}
