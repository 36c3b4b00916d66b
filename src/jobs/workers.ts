// The worker pool of one process: agent runs and deployment builds (AGENT_CONCURRENCY of each at a
// time), and the periodic jobs, scheduled by cron in pg-boss so that one replica does each
// occurrence: housekeeping every ten minutes, closing billing periods every hour.
import type { Logger } from "pino";
import type { Agent } from "../agents/agent.ts";
import type { AppAccess } from "../domain/app-access.ts";
import { closeBillingPeriod } from "../domain/billing.ts";
import { purgeUnreferencedBlobs } from "../domain/builds.ts";
import { purgeAbandonedUploads } from "../domain/files.ts";
import { purgeExpired } from "../http/idempotency.ts";
import type { Database } from "../storage/index.ts";
import { createAgentRunWorker } from "./agent-run-worker.ts";
import { createDeploymentWorker } from "./deployment-worker.ts";
import { queues, type JobQueue } from "./queue.ts";

export interface WorkerOptions {
  readonly db: Database;
  readonly agent: Agent;
  readonly apps: AppAccess;
  readonly logger: Logger;
  /** Jobs of each kind this process works on at once. */
  readonly concurrency: number;
  readonly agentRunTimeoutMs: number;
  /** How often an idle worker asks for a job, in seconds (default 1). */
  readonly pollingIntervalSeconds?: number;
}

export async function startWorkers(queue: JobQueue, options: WorkerOptions): Promise<void> {
  const { boss } = queue;
  const { db, logger } = options;
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, localConcurrency: options.concurrency, batchSize: 1 };

  const carryOutRun = createAgentRunWorker({ db, agent: options.agent, timeoutMs: options.agentRunTimeoutMs, logger });
  await boss.work<{ runId: string }>(queues.agentRun, polling, async ([job]) => carryOutRun(job.data.runId));

  const buildDeployment = createDeploymentWorker({ db, apps: options.apps, logger });
  await boss.work<{ deploymentId: string }>(queues.deploymentBuild, polling, async ([job]) => buildDeployment(job.data.deploymentId));

  await boss.work(queues.housekeeping, { pollingIntervalSeconds: 30 }, async () => {
    const [idempotencyKeys, uploads, blobs] = [
      await purgeExpired(db),
      // Far older than any upload in progress: only a process that died leaves these.
      await purgeAbandonedUploads(db, new Date(Date.now() - 60 * 60_000)),
      await purgeUnreferencedBlobs(db),
    ];
    logger.debug({ idempotencyKeys, uploads, blobs }, "housekeeping done");
  });
  await boss.schedule(queues.housekeeping, "*/10 * * * *");

  await boss.work(queues.billing, { pollingIntervalSeconds: 30 }, async () => {
    const invoices = await closeBillingPeriod(db);
    if (invoices > 0) logger.info({ invoices }, "billing period closed");
  });
  await boss.schedule(queues.billing, "7 * * * *");
}
