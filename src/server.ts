// The composition root: one function builds the whole process from its configuration (storage,
// job queue, the API and apps listeners, workers, webhook deliveries, the admin socket) and hands
// back what it built, with `start` and `stop`. src/main.ts runs one for the process; the tests
// build theirs with the same function, handing in the few parts they replace (a test database, a
// scripted agent).
import type { Agent } from "./agents/agent.ts";
import { selectAgent } from "./agents/index.ts";
import { createApp, type App, type AppOptions } from "./app.ts";
import { createAppsServer, type AppsServer } from "./apps/server.ts";
import { startAdminSocket, type AdminSocket } from "./cli/admin-socket.ts";
import { ConfigError, type Config } from "./config.ts";
import { createAppAccess, type AppAccess } from "./domain/app-access.ts";
import { setPasswordHashCost } from "./domain/passwords.ts";
import { createWebhookTargets, type Resolver, type WebhookTargets } from "./domain/webhook-targets.ts";
import { selectRateLimitStore, type RateLimitStore } from "./http/rate-limit/index.ts";
import { createBuildPool, type BuildPool } from "./jobs/build-pool/build-pool.ts";
import { openJobQueue, type JobQueue } from "./jobs/queue.ts";
import { startDeliveryWorker, type DeliveryWorker } from "./jobs/webhook-delivery-worker.ts";
import { startWorkers } from "./jobs/workers.ts";
import { createLogger, type Logger } from "./logger.ts";
import { openStorage, type Storage } from "./storage/index.ts";
import { sharedSecret } from "./storage/secrets.ts";

/** What a caller may hand in instead of what the configuration would build. */
export interface ServerParts {
  /** Storage opened by the caller; otherwise the one the configuration names. Closed by `stop`. */
  readonly storage?: Storage;
  readonly logger?: Logger;
  /** The agent every run uses; otherwise the model the configuration names, or the built-in agent. */
  readonly agent?: Agent;
  /** How webhook URLs' host names are resolved (default: the system's resolver). */
  readonly resolve?: Resolver;
  /** Where rate-limit counters live; otherwise Redis, PostgreSQL or memory, as configured. Closed by `stop`. */
  readonly rateLimitStore?: RateLimitStore;
  /**
   * Which work after requests this process does (default both): agent runs and deployment builds,
   * and webhook deliveries. A process without them only queues work, for others to do.
   */
  readonly workers?: boolean;
  readonly deliveries?: boolean;
  /** How long `stop` waits for requests and deliveries in flight before cutting them (default 10 s and 5 s). */
  readonly drainTimeoutMs?: number;
  /** The API's settings the configuration does not carry: rate-limit figures, stream timings. */
  readonly api?: Pick<AppOptions, "rateLimitPlans" | "rateLimitWindows" | "unauthenticatedLimit" | "eventStreams">;
}

export interface Server {
  readonly config: Config;
  readonly logger: Logger;
  readonly storage: Storage;
  readonly app: App;
  readonly appsServer: AppsServer;
  readonly jobs: JobQueue;
  readonly apps: AppAccess;
  readonly webhookTargets: WebhookTargets;
  /** Binds both listeners (port 0 picks a free one), then starts the work after requests. */
  start(): Promise<{ url: string; appsUrl: string }>;
  /** Stops accepting, drains the requests and jobs in hand, closes storage. */
  stop(): Promise<void>;
}

/**
 * Opens storage and the job queue (migrating or checking their schemas as MIGRATE_ON_START says:
 * a schema behind this release throws SchemaNotCurrentError) and builds everything else; nothing
 * listens until `start`.
 */
export async function createServer(config: Config, parts: ServerParts = {}): Promise<Server> {
  // Before this process opened the database: on the embedded one, an upload pending from before
  // then is a dead process's.
  const openedAt = new Date();
  setPasswordHashCost(config.passwordHashCost);
  const logger = parts.logger ?? createLogger({ level: config.logLevel });
  const storage =
    parts.storage ?? (await openStorage(config, { migrations: config.migrateOnStart ? "apply" : "require" }));
  const closing: (() => Promise<void>)[] = [() => storage.close()];
  try {
    const workers = parts.workers ?? true;
    const jobs = await openJobQueue(storage, logger, {
      agentRunTimeoutMs: config.agentRunTimeoutMs,
      migrate: config.migrateOnStart,
      // A process that works no jobs leaves pg-boss's maintenance to those that do.
      maintain: workers,
      superviseIntervalMs: config.jobSuperviseIntervalMs,
      retryDelayMs: config.jobRetryDelayMs,
      retryDelayMaxMs: config.jobRetryDelayMaxMs,
    });
    closing.unshift(() => jobs.stop());
    const rateLimitStore =
      parts.rateLimitStore ??
      (await selectRateLimitStore({
        redisUrl: config.redisUrl,
        pgPool: storage.driver === "postgres" ? storage.pool : undefined,
        onError: (error) => logger.warn({ err: error }, "rate-limit store unavailable; counting in memory"),
      }));
    const webhookTargets = createWebhookTargets({
      allowPrivateNetworks: config.webhookAllowPrivateNetworks,
      ...(parts.resolve ? { resolve: parts.resolve } : {}),
    });
    let appsPort = config.appsPort;
    const apps = createAppAccess({
      secret: await sharedSecret(storage.db, "apps"),
      appsDomain: config.appsDomain,
      appsPort: () => appsPort,
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
      idempotencyLockTimeoutMs: config.idempotencyLockTimeoutMs,
      ...(parts.drainTimeoutMs !== undefined ? { drainTimeoutMs: parts.drainTimeoutMs } : {}),
      ...parts.api,
    });
    const appsServer = createAppsServer({ db: storage.db, access: apps, logger, limits: config.serverLimits });

    let started: Promise<{ url: string; appsUrl: string }> | undefined;
    let admin: AdminSocket | undefined;
    let buildPool: BuildPool | undefined;
    let deliveries: DeliveryWorker | undefined;

    async function start(): Promise<{ url: string; appsUrl: string }> {
      // On the embedded database this process owns DATA_DIR, so `pbs` reaches it through this socket.
      if (storage.driver === "pglite") {
        admin = await startAdminSocket({ storage, socketPath: config.adminSocketPath, logger });
      }
      const url = await app.listen(config.port, config.host).catch(refused("PORT", config.port, config.host));
      const appsUrl = await appsServer
        .listen(config.appsPort, config.host)
        .catch(refused("APPS_PORT", config.appsPort, config.host));
      appsPort = Number(new URL(appsUrl).port);
      // Work after requests starts once the API answers: requests only queue it, and the first
      // answer should not wait for the workers to subscribe.
      if (workers) {
        // Tenants' builds and the built-in agent's edits run in these threads, never on this event loop.
        buildPool = createBuildPool({ threads: config.buildWorkers, timeoutMs: config.buildTimeoutMs });
        await startWorkers(jobs, {
          db: storage.db,
          agent: parts.agent ?? selectAgent(config.agent, buildPool.editProject),
          apps,
          buildPool,
          logger,
          concurrency: config.agentConcurrency,
          tenantCaps: { runs: config.planRunConcurrency, builds: config.planBuildConcurrency },
          agentRunTimeoutMs: config.agentRunTimeoutMs,
          changes: storage.changes,
          pollingIntervalSeconds: config.jobPollIntervalMs / 1000,
          retentionDays: config.auditRetentionDays,
          withoutAutovacuum: storage.driver === "pglite",
          ...(storage.driver === "pglite" ? { abandonedUploadsBefore: openedAt } : {}),
        });
      }
      if (parts.deliveries ?? true) {
        deliveries = await startDeliveryWorker({
          db: storage.db,
          soleOwner: storage.driver === "pglite",
          targets: webhookTargets,
          logger,
          concurrency: config.webhookConcurrency,
          pollMs: config.webhookPollIntervalMs,
          attemptTimeoutMs: config.webhookAttemptTimeoutMs,
          ...(config.webhookRetrySchedule ? { retrySchedule: config.webhookRetrySchedule } : {}),
        });
      }
      logger.info(
        {
          url,
          apps: appsUrl,
          docs: `${config.publicUrl ?? url}/docs`,
          console: `${config.publicUrl ?? url}/settings`,
          next: NEXT_COMMAND,
          storage: storage.driver,
          agent: config.agent ? "model" : "builtin",
        },
        "listening",
      );
      return { url, appsUrl };
    }

    let stopped: Promise<void> | undefined;
    async function stop(): Promise<void> {
      await Promise.all([app.stop(), appsServer.stop(), jobs.stop(), deliveries?.stop(parts.drainTimeoutMs)]);
      // After the jobs in hand: they may be waiting on a build thread.
      await buildPool?.close();
      await admin?.close();
      await storage.close();
    }

    return {
      config,
      logger,
      storage,
      app,
      appsServer,
      jobs,
      apps,
      webhookTargets,
      start: () => (started ??= start()),
      stop: () => (stopped ??= stop()),
    };
  } catch (error) {
    // What was opened before the failure is closed, so a caller that handles the error leaks nothing.
    for (const close of closing) await close().catch(() => {});
    throw error;
  }
}

/** What a person starting the server for the first time runs next: a key to call the API with. */
export const NEXT_COMMAND = "npx pbs keys create --workspace acme --name dev";

/** A listener that cannot bind ends the start with a ConfigError naming the variable to change. */
function refused(variable: string, port: number, host: string) {
  return (error: NodeJS.ErrnoException): never => {
    if (error.code === "EADDRINUSE")
      throw new ConfigError(`port ${port} on ${host} is in use; set ${variable} to a free port (0: any free port).`);
    if (error.code === "EACCES")
      throw new ConfigError(
        `port ${port} on ${host} needs privileges this process lacks; set ${variable} to a port above 1023.`,
      );
    if (error.code === "EADDRNOTAVAIL")
      throw new ConfigError(`${host} is not an address of this machine; set HOST to one that is (or 0.0.0.0).`);
    throw error;
  };
}
