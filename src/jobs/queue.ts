// The durable job queue: pg-boss over the server's own database, on either driver. On PGlite it
// shares the one embedded connection (pg-boss's PGlite adapter); on PostgreSQL it borrows the
// server's pool. Jobs are rows in the `pgboss` schema, so queued work survives a restart, and a job
// whose process died is found by its lapsed heartbeat and retried: on PGlite by the next start of
// the server, on PostgreSQL by any other replica.
import { PgBoss, fromPglite, type Db, type Queue } from "pg-boss";
import type { Logger } from "pino";
import { placeInQueue, type WorkKind } from "../domain/fair-share.ts";
import type { WorkQueue } from "../domain/work-queue.ts";
import type { Queryable, Storage } from "../storage/index.ts";
import { SchemaNotCurrentError } from "../storage/migrator.ts";
import { executeText } from "../storage/prepared.ts";

export const queues = {
  agentRun: "agent-run",
  deploymentBuild: "deployment-build",
  housekeeping: "housekeeping",
  billing: "billing",
  retention: "retention",
} as const;

/**
 * How long a worker may go silent before its job counts as abandoned: pg-boss's minimum. A live
 * worker refreshes the heartbeat every HEARTBEAT_SECONDS / 2; the supervisor looks every
 * `superviseIntervalMs` (JOB_SUPERVISE_INTERVAL, 10 s), so a dead worker's job is retried within
 * about 20 seconds.
 */
const HEARTBEAT_SECONDS = 10;
/** Retries of an agent-run or deployment-build job before it is given up (about 10 minutes of backoff). */
export const JOB_RETRY_LIMIT = 8;

export interface JobQueueOptions {
  /** The longest an agent run may take; its job expires a little after that. */
  agentRunTimeoutMs: number;
  /**
   * Take part in pg-boss's maintenance (retrying jobs of dead workers, cron schedules). Default
   * true; a process that only queues jobs and works none may leave it to those that do.
   */
  maintain?: boolean;
  /**
   * Install or migrate pg-boss's own schema (`pgboss`) at start. Default true; false (the server
   * with MIGRATE_ON_START=false) only checks it, and `pbs migrate` installs it (migrateJobQueue).
   */
  migrate?: boolean;
  /** How often the supervisor looks for lapsed heartbeats (JOB_SUPERVISE_INTERVAL; default 10 s). */
  superviseIntervalMs?: number;
  /** A failed job's first retry delay, doubling up to the max (JOB_RETRY_DELAY, _MAX; whole seconds). */
  retryDelayMs?: number;
  retryDelayMaxMs?: number;
}

export interface JobQueue extends WorkQueue {
  readonly boss: PgBoss;
  stop(): Promise<void>;
}

/** Starts pg-boss on the storage (installing or migrating its schema unless told not to) and creates the queues. */
export async function openJobQueue(storage: Storage, logger: Logger, options: JobQueueOptions): Promise<JobQueue> {
  const maintenance = options.maintain === false ? { supervise: false, schedule: false } : {};
  const superviseSeconds = (options.superviseIntervalMs ?? 10_000) / 1000;
  const boss = newBoss(storage, {
    ...maintenance,
    migrate: options.migrate ?? true,
    superviseIntervalSeconds: superviseSeconds,
    // Lapsed heartbeats are found by the monitor pass, which runs as often as the supervisor.
    monitorIntervalSeconds: superviseSeconds,
  });
  boss.on("error", (error: unknown) => logger.warn({ err: error }, "job queue error"));
  try {
    await boss.start();
  } catch (error) {
    // pg-boss's words for a schema that `pbs migrate` has not installed, or not brought up to date.
    if (options.migrate === false && /pg-boss is not installed|requires migrations/.test((error as Error).message)) {
      throw new SchemaNotCurrentError(
        ["pg-boss"],
        false,
        "the job queue's schema (pgboss) is missing or behind this release; run `pbs migrate`",
      );
    }
    throw error;
  }

  const expireInSeconds = Math.ceil(options.agentRunTimeoutMs / 1000) + 60;
  // A job fails only when its process died or storage failed (the worker records an agent's own
  // failure on the run): retry soon, then back off.
  const retries = {
    retryLimit: JOB_RETRY_LIMIT,
    retryDelay: (options.retryDelayMs ?? 2000) / 1000,
    retryBackoff: true,
    retryDelayMax: (options.retryDelayMaxMs ?? 300_000) / 1000,
  };
  await ensureQueue(boss, queues.agentRun, { expireInSeconds, heartbeatSeconds: HEARTBEAT_SECONDS, ...retries });
  await ensureQueue(boss, queues.deploymentBuild, {
    expireInSeconds: 15 * 60,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    ...retries,
  });
  await ensureQueue(boss, queues.housekeeping, { expireInSeconds: 15 * 60, retryLimit: 1 });
  // This process owns the embedded database's directory alone (src/storage/pglite.ts), so a job
  // still active in it was claimed by a process that is gone: retry it now rather than wait for
  // its heartbeat to lapse.
  if (storage.driver === "pglite" && options.maintain !== false) {
    for (const name of [queues.agentRun, queues.deploymentBuild]) await retryOrphans(boss, name, logger);
  }
  await ensureQueue(boss, queues.billing, {
    expireInSeconds: 15 * 60,
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
  });
  // One run at a time, queued or active: a run that takes longer than the schedule's period is not
  // joined by the next one.
  await ensureQueue(boss, queues.retention, { policy: "exclusive", expireInSeconds: 15 * 60, retryLimit: 1 });

  /**
   * Sends the job through the caller's transaction: it exists only if that transaction commits. Its
   * insert runs as a named statement (executeText), not parsed anew each time. Its turn is its
   * priority (the lower the turn, the sooner: pg-boss claims the highest priority, then the oldest),
   * its tenant its group, and its tenant's plan the group's tier, which caps the tenant's jobs in progress.
   */
  const send = async (tx: Queryable, name: string, kind: WorkKind, id: string, data: object) => {
    const { tenant, plan, round } = await placeInQueue(tx, kind, id);
    await boss.send(
      name,
      { ...data, round },
      {
        priority: -round,
        group: { id: tenant, tier: plan },
        db: { executeSql: (text, values) => executeText(tx, text, values ?? []) },
      },
    );
  };
  let stopped: Promise<void> | undefined;
  return {
    boss,
    queueAgentRun: (tx, runId) => send(tx, queues.agentRun, "agent_run", runId, { runId }),
    queueDeploymentBuild: (tx, deploymentId) =>
      send(tx, queues.deploymentBuild, "deployment_build", deploymentId, { deploymentId }),
    stop() {
      // Graceful: workers finish the job in hand (up to the timeout); the database stays open.
      stopped ??= boss.stop({ graceful: true, timeout: 30_000, close: false });
      return stopped;
    },
  };
}

/**
 * Installs or migrates pg-boss's own schema, and nothing else (no maintenance, no schedules): what
 * `pbs migrate` does besides the application's migrations, for servers that only check it.
 */
export async function migrateJobQueue(storage: Storage): Promise<void> {
  const boss = newBoss(storage, { supervise: false, schedule: false, migrate: true });
  boss.on("error", () => {}); // start() rejects with anything that matters
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}

function newBoss(
  storage: Storage,
  maintenance: {
    supervise?: boolean;
    schedule?: boolean;
    migrate: boolean;
    superviseIntervalSeconds?: number;
    monitorIntervalSeconds?: number;
  },
): PgBoss {
  return storage.driver === "pglite"
    ? new PgBoss({ db: fromPglite(storage.client), backend: "pglite", ...bossOptions, ...maintenance })
    : new PgBoss({ db: poolDatabase(storage.pool), ...bossOptions, ...maintenance });
}

const bossOptions = {
  schema: "pgboss",
  // Telemetry off: nothing leaves the machine, and no spans are made for nobody.
  openTelemetry: { enabled: false },
  registerInstance: false,
};

async function retryOrphans(boss: PgBoss, name: string, logger: Logger): Promise<void> {
  const orphans: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await boss.findJobs(name, { limit: 1000, ...(after ? { after } : {}) });
    orphans.push(...page.filter((job) => job.state === "active").map((job) => job.id));
    if (page.length < 1000) break;
    after = page.at(-1)!.id;
  }
  if (orphans.length === 0) return;
  await boss.fail(name, orphans, { message: "the process working on it stopped" });
  logger.info({ queue: name, jobs: orphans.length }, "retrying jobs left active by a previous process");
}

async function ensureQueue(boss: PgBoss, name: string, options: Omit<Queue, "name">): Promise<void> {
  // A queue's policy is fixed when it is created; updates carry the rest.
  const { policy: _policy, ...updatable } = options;
  if (await boss.getQueue(name)) await boss.updateQueue(name, updatable);
  else await boss.createQueue(name, options);
}

/**
 * pg-boss's database interface over the server's node-postgres pool. A claim under group concurrency
 * counts each group's jobs in progress in its statement's snapshot, so two claims at the same instant
 * (two workers, two replicas) could each see the other's job not yet started and take a tenant past
 * its cap. Such claims of one queue therefore run one at a time, each in a transaction that first
 * takes the queue's advisory lock: the claim's snapshot, taken after the lock, sees every claim
 * before it. (On PGlite, one connection runs one statement at a time.)
 */
function poolDatabase(pool: import("pg").Pool): Db {
  return {
    async executeSql(text, values) {
      const queue = cappedClaimQueue(text);
      if (queue === undefined) return pool.query(text, values);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [CLAIM_LOCK_CLASS, queue]);
        const result = await client.query(text, values);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** The first key of the claim locks' (two-key) advisory locks: apart from any one-key lock. */
const CLAIM_LOCK_CLASS = 0x70627363; // "pbsc"

/**
 * The queue a statement claims jobs of, when it is pg-boss's claim under group concurrency (only that
 * statement counts jobs in progress per group, in its `active_group_count_map`); undefined otherwise.
 * queue.test.ts reads pg-boss's own claim, so an upgrade that words it otherwise fails there.
 */
export function cappedClaimQueue(text: string): string | undefined {
  if (!text.includes("active_group_count_map")) return undefined;
  return /\bj\.name = '([^']+)'/.exec(text)?.[1];
}
