// The worker pool of one process: agent runs and deployment builds (AGENT_CONCURRENCY of each at a
// time; the builds themselves, and the built-in agent's edits, run in the build pool's threads:
// src/jobs/build-pool/), and the periodic jobs, scheduled by cron in pg-boss so that one replica does each
// occurrence: housekeeping and retention every ten minutes, closing billing periods every hour.
import type { Logger } from "pino";
import type { Agent } from "../agents/agent.ts";
import type { BuildPool } from "./build-pool/build-pool.ts";
import type { AppAccess } from "../domain/app-access.ts";
import { abandonAgentRun } from "../domain/agent-runs.ts";
import { closeBillingPeriod } from "../domain/billing.ts";
import { advanceQueueClock, type WorkKind } from "../domain/fair-share.ts";
import type { Plan } from "../domain/plans.ts";
import { failDeployment } from "../domain/deployments.ts";
import { purgeUnreferencedBlobs } from "../domain/builds.ts";
import { purgeAbandonedUploads } from "../domain/files.ts";
import { purgeExpiredIdempotencyKeys } from "../domain/idempotency-keys.ts";
import { purgeExpiredOAuth } from "../domain/oauth.ts";
import { deleteExpiredRecords } from "../domain/retention.ts";
import { purgeExpiredSessions } from "../domain/sessions.ts";
import type { Database } from "../storage/index.ts";
import { reclaimRetainedTablesSpace, refreshPlannerStatistics } from "../storage/maintenance.ts";
import type { ChangeFeed } from "../storage/notifications.ts";
import { createAgentRunWorker } from "./agent-run-worker.ts";
import { createDeploymentWorker } from "./deployment-worker.ts";
import { JOB_RETRY_LIMIT, queues, type JobQueue } from "./queue.ts";

export interface WorkerOptions {
  readonly db: Database;
  readonly agent: Agent;
  readonly apps: AppAccess;
  readonly logger: Logger;
  /** Where deployments are built (and the agent, when built-in, edits): closed by the caller after the queue stops. */
  readonly buildPool: Pick<BuildPool, "buildSite">;
  /** Jobs of each kind this process works on at once. */
  readonly concurrency: number;
  /** Runs, and builds, one tenant may have in progress at once on all replicas, by plan. */
  readonly tenantCaps: {
    readonly runs: Readonly<Record<Plan, number>>;
    readonly builds: Readonly<Record<Plan, number>>;
  };
  readonly agentRunTimeoutMs: number;
  /** The database's change feed: a running run notices its cancel by it (src/jobs/agent-run-worker.ts). */
  readonly changes?: ChangeFeed;
  /** How often an idle worker asks for a job, in seconds (default 1 for runs and builds, 30 for the periodic jobs). */
  readonly pollingIntervalSeconds?: number;
  /** Days audit rows, events and webhook delivery logs are kept (AUDIT_RETENTION_DAYS). */
  readonly retentionDays: number;
  /**
   * Do autovacuum's work (src/storage/maintenance.ts): for the embedded PGlite, which has none.
   * Housekeeping refreshes the planner's statistics, and retention vacuums the tables it deleted from.
   */
  readonly withoutAutovacuum?: boolean;
  /**
   * Remove at start the uploads left pending since before this time: the embedded database has one
   * process, so an upload pending from before it started was cut by a previous process's death and
   * its chunks would otherwise wait an hour for housekeeping. (On PostgreSQL another replica may be
   * receiving it: there only housekeeping's hour decides.)
   */
  readonly abandonedUploadsBefore?: Date;
}

/** The longest one retention run deletes for; the rest waits for the next run, ten minutes later. */
const RETENTION_RUN_MS = 5 * 60_000;

export async function startWorkers(queue: JobQueue, options: WorkerOptions): Promise<void> {
  const { boss } = queue;
  const { db, logger } = options;
  if (options.abandonedUploadsBefore) {
    const uploads = await purgeAbandonedUploads(db, options.abandonedUploadsBefore);
    if (uploads > 0) logger.info({ uploads }, "removed uploads left pending by a previous process");
  }
  const polling = {
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    localConcurrency: options.concurrency,
    batchSize: 1,
  };
  // A job's group is its tenant and its tier the tenant's plan (src/jobs/queue.ts). A job queued
  // before tenants had caps has no group, and no cap.
  const capped = (caps: Readonly<Record<Plan, number>>) => ({
    ...polling,
    groupConcurrency: { default: Math.min(...Object.values(caps)), tiers: { ...caps } },
  });
  /** Runs `work` after moving the queue's clock to the job's turn (src/domain/fair-share.ts). */
  const inTurn = async (kind: WorkKind, round: number | undefined, work: () => Promise<void>) => {
    if (round !== undefined) await advanceQueueClock(db, kind, round);
    await work();
  };
  const periodic = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 30 };

  const carryOutRun = createAgentRunWorker({
    db,
    agent: options.agent,
    timeoutMs: options.agentRunTimeoutMs,
    logger,
    ...(options.changes ? { changes: options.changes } : {}),
  });
  await boss.work<{ runId: string; round?: number }>(queues.agentRun, capped(options.tenantCaps.runs), async ([job]) =>
    lastAttemptEnds(
      job!.retryCount,
      () => inTurn("agent_run", job!.data.round, () => carryOutRun(job!.data.runId)),
      () => abandonAgentRun(db, job!.data.runId),
    ),
  );

  const buildDeployment = createDeploymentWorker({
    db,
    apps: options.apps,
    logger,
    buildSite: options.buildPool.buildSite,
  });
  await boss.work<{ deploymentId: string; round?: number }>(
    queues.deploymentBuild,
    capped(options.tenantCaps.builds),
    async ([job]) =>
      lastAttemptEnds(
        job!.retryCount,
        () => inTurn("deployment_build", job!.data.round, () => buildDeployment(job!.data.deploymentId)),
        () =>
          failDeployment(db, job!.data.deploymentId, {
            code: "internal_error",
            message: "The deployment could not be built; create it again.",
          }),
      ),
  );

  /** Runs `work`; when it fails on the job's last attempt, `giveUp` ends the resource so it does not stay pending. */
  async function lastAttemptEnds(
    retryCount: number,
    work: () => Promise<void>,
    giveUp: () => Promise<unknown>,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      logger.warn({ err: error, attempt: retryCount + 1 }, "job failed");
      if (retryCount >= JOB_RETRY_LIMIT)
        await giveUp().catch((cause: unknown) => logger.error({ err: cause }, "could not end a job given up"));
      throw error;
    }
  }

  await boss.work(queues.housekeeping, periodic, async () => {
    const idempotencyKeys = await purgeExpiredIdempotencyKeys(db);
    // Far older than any upload in progress: only a process that died leaves these.
    const uploads = await purgeAbandonedUploads(db, new Date(Date.now() - 60 * 60_000));
    const blobs = await purgeUnreferencedBlobs(db);
    await purgeExpiredSessions(db);
    await purgeExpiredOAuth(db);
    if (options.withoutAutovacuum) await refreshPlannerStatistics(db);
    logger.debug({ idempotencyKeys, uploads, blobs }, "housekeeping done");
  });
  await boss.schedule(queues.housekeeping, "*/10 * * * *");

  await boss.work(queues.retention, periodic, async () => {
    const before = new Date(Date.now() - options.retentionDays * 24 * 3_600_000);
    const deleted = await deleteExpiredRecords(db, { before, deadline: Date.now() + RETENTION_RUN_MS });
    if (options.withoutAutovacuum && deleted.deliveries + deleted.events + deleted.auditRows > 0) {
      await reclaimRetainedTablesSpace(db);
    }
    logger.info({ ...deleted, before: before.toISOString() }, "retention done");
  });
  await boss.schedule(queues.retention, "*/10 * * * *");

  await boss.work(queues.billing, periodic, async () => {
    const invoices = await closeBillingPeriod(db);
    if (invoices > 0) logger.info({ invoices }, "billing period closed");
  });
  await boss.schedule(queues.billing, "7 * * * *");
}
