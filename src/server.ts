// Composition root: configuration → logger → storage → job queue → API server, apps server,
// workers and the webhook delivery worker, and the order of a graceful stop on SIGTERM/SIGINT (stop accepting, drain requests and
// jobs in hand, close storage).
import { selectAgent } from "./agents/index.ts";
import { createApp } from "./app.ts";
import { createAppsServer } from "./apps/server.ts";
import { startAdminSocket } from "./cli/admin-socket.ts";
import { loadConfig } from "./config.ts";
import { createAppAccess } from "./domain/app-access.ts";
import { setPasswordHashCost } from "./domain/passwords.ts";
import { createWebhookTargets } from "./domain/webhook-targets.ts";
import { selectRateLimitStore } from "./http/rate-limit/index.ts";
import { createBuildPool } from "./jobs/build-pool/build-pool.ts";
import { openJobQueue } from "./jobs/queue.ts";
import { startDeliveryWorker } from "./jobs/webhook-delivery-worker.ts";
import { startWorkers } from "./jobs/workers.ts";
import { createLogger } from "./logger.ts";
import { openStorage, type Storage } from "./storage/index.ts";
import { SchemaNotCurrentError } from "./storage/migrator.ts";
import { sharedSecret } from "./storage/secrets.ts";

/** Before this process opened the database: on the embedded one, an upload pending from before then is a dead process's. */
const startedAt = new Date();
const config = loadConfig();
setPasswordHashCost(config.passwordHashCost);
const logger = createLogger({ level: config.logLevel });
const storage = await exitIfSchemaNotCurrent(
  openStorage(config, { migrations: config.migrateOnStart ? "apply" : "require" }),
);
const rateLimitStore = await selectRateLimitStore({
  redisUrl: config.redisUrl,
  pgPool: storage.driver === "postgres" ? storage.pool : undefined,
  onError: (error) => logger.warn({ err: error }, "rate-limit store unavailable; counting in memory"),
});
const jobs = await exitIfSchemaNotCurrent(
  openJobQueue(storage, logger, { agentRunTimeoutMs: config.agentRunTimeoutMs, migrate: config.migrateOnStart }),
  storage,
);
const webhookTargets = createWebhookTargets({ allowPrivateNetworks: config.webhookAllowPrivateNetworks });
const apps = createAppAccess({
  secret: await sharedSecret(storage.db, "apps"),
  appsDomain: config.appsDomain,
  appsPort: config.appsPort,
});
const app = await createApp({
  storage,
  logger,
  rateLimitStore,
  work: jobs,
  apps,
  webhookTargets,
  cursorSecret: config.cursorSecret ?? (await sharedSecret(storage.db, "cursor")),
  publicUrl: config.publicUrl,
  csrfSecret: await sharedSecret(storage.db, "csrf"),
  serverLimits: config.serverLimits,
  trustProxy: config.trustProxy,
  unauthenticatedLimit: { limit: config.unauthenticatedRateLimit },
  eventStreams: { perKey: config.eventStreamsPerKey, heartbeatMs: config.eventStreamHeartbeatMs },
});
const appsServer = createAppsServer({ db: storage.db, access: apps, logger, limits: config.serverLimits });
// On the embedded database this process owns DATA_DIR, so `pbs` reaches it through this socket.
const admin =
  storage.driver === "pglite"
    ? await startAdminSocket({ storage, socketPath: config.adminSocketPath, logger })
    : undefined;
const url = await app.listen(config.port, config.host);
const appsUrl = await appsServer.listen(config.appsPort, config.host);
// Tenants' builds and the built-in agent's edits run in these threads, never on this event loop.
const buildPool = createBuildPool({ threads: config.buildWorkers, timeoutMs: config.buildTimeoutMs });
// Work after requests starts once the API answers: requests only queue it, and the first answer
// should not wait for the workers to subscribe.
await startWorkers(jobs, {
  db: storage.db,
  agent: selectAgent(config.agent, buildPool.editProject),
  apps,
  buildPool,
  logger,
  concurrency: config.agentConcurrency,
  agentRunTimeoutMs: config.agentRunTimeoutMs,
  changes: storage.changes,
  retentionDays: config.auditRetentionDays,
  withoutAutovacuum: storage.driver === "pglite",
  ...(storage.driver === "pglite" ? { abandonedUploadsBefore: startedAt } : {}),
});
const deliveries = await startDeliveryWorker({
  db: storage.db,
  soleOwner: storage.driver === "pglite",
  targets: webhookTargets,
  logger,
  concurrency: config.webhookConcurrency,
  ...(config.webhookRetrySchedule ? { retrySchedule: config.webhookRetrySchedule } : {}),
});
logger.info({ url, apps: appsUrl, storage: storage.driver, agent: config.agent ? "model" : "builtin" }, "listening");

/**
 * Opening storage and the job queue migrates their schemas by default; with MIGRATE_ON_START=false
 * it only checks them, and a schema that is behind stops the process with a message saying what to
 * run, not a stack trace.
 */
async function exitIfSchemaNotCurrent<T>(opening: Promise<T>, opened?: Storage): Promise<T> {
  try {
    return await opening;
  } catch (error) {
    if (!(error instanceof SchemaNotCurrentError)) throw error;
    logger.fatal({ pending: error.pending }, `${error.message} (or start with MIGRATE_ON_START=true)`);
    await opened?.close();
    process.exit(1);
  }
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "stopping: draining requests and jobs in flight");
  await Promise.all([app.stop(), appsServer.stop(), jobs.stop(), deliveries.stop()]);
  // After the jobs in hand: they may be waiting on a build thread.
  await buildPool.close();
  await admin?.close();
  await storage.close();
  logger.info("stopped");
}
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "unclean stop");
        process.exit(1);
      },
    );
  });
}
