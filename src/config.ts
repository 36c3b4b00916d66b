// The process's configuration. Every environment variable the server reads is declared once, in
// `variables` below: its parser (what a value may be, its default) and its meaning. loadConfig
// reads and validates them once, at start, so a typo fails loudly before anything listens, and the
// rest of the code gets typed values; scripts/configuration-doc.ts renders docs/configuration.md
// from the same declarations, so the reference cannot drift from the code.
import { join, resolve } from "node:path";
import type { AgentEndpoint } from "./agents/index.ts";
import { DEFAULT_SCRYPT_COST, type ScryptCost } from "./domain/passwords.ts";
import { RETRY_SCHEDULE_MS } from "./domain/webhook-sending.ts";
import { DEFAULT_UNAUTHENTICATED_LIMIT } from "./http/address-limit.ts";
import { DEFAULT_EVENT_STREAMS_PER_KEY } from "./domain/event-stream.ts";
import { DEFAULT_EVENT_STREAM_SETTINGS } from "./http/event-stream.ts";
import { parseTrustProxy, type TrustProxy } from "./http/client-address.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./listen.ts";
import { IDEMPOTENCY_LOCK_TIMEOUT_MS } from "./http/idempotency.ts";
import { logLevels, type LogLevel } from "./logger.ts";
import { PLAN_CONCURRENCY, type Plan } from "./domain/plans.ts";

/** How long audit rows, events and webhook delivery logs are kept unless AUDIT_RETENTION_DAYS says otherwise. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

const DAY_MS = 24 * 60 * 60_000;

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. Holds the embedded database (when DATABASE_URL is unset) and the admin socket. */
  readonly dataDir: string;
  /** When set, storage is this PostgreSQL server (node-postgres) instead of PGlite in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Connections the node-postgres pool may open. */
  readonly databasePoolSize: number;
  readonly redisUrl: string | undefined;
  /** Signs pagination cursors; when unset, a secret kept in the database (shared by every replica). */
  readonly cursorSecret: string | undefined;
  readonly logLevel: LogLevel;
  /** The unix socket through which `pbs` reaches a server that owns the embedded database. */
  readonly adminSocketPath: string;
  /** Jobs (agent runs, deployment builds) this process works on at once. */
  readonly agentConcurrency: number;
  /** The longest an agent run may take before it fails with `timeout`. */
  readonly agentRunTimeoutMs: number;
  /** Agent runs a tenant may have in progress at once, by its workspace's plan (on every replica together). */
  readonly planRunConcurrency: Readonly<Record<Plan, number>>;
  /** Deployment builds a tenant may have in progress at once, by plan. */
  readonly planBuildConcurrency: Readonly<Record<Plan, number>>;
  /** Threads this process runs builds and the built-in agent's edits in (src/jobs/build-pool/). */
  readonly buildWorkers: number;
  /** The longest a build (or an edit) may take in its thread before it fails. */
  readonly buildTimeoutMs: number;
  /** An OpenAI-compatible endpoint every agent runs on; unset: the built-in offline agent. */
  readonly agent: AgentEndpoint | undefined;
  /** The port of the listener that serves published apps. */
  readonly appsPort: number;
  /** A wildcard domain (behind TLS) apps are served under as `https://<label>.<domain>/`; unset: `<label>.localhost`. */
  readonly appsDomain: string | undefined;
  /** Webhook delivery attempts in flight at once in this process. */
  readonly webhookConcurrency: number;
  /** Local development: webhook URLs may be http and reach loopback and private addresses. */
  readonly webhookAllowPrivateNetworks: boolean;
  /** The waits between a delivery's attempts; undefined: the contract's schedule. */
  readonly webhookRetrySchedule: readonly number[] | undefined;
  /**
   * Where people and OAuth clients reach this server (scheme, host, port; no path): the OAuth
   * issuer, the console's origin for CSRF checks, and https here makes its cookies Secure.
   * Unset: the address and port the API's listener bound.
   */
  readonly publicUrl: string | undefined;
  /** scrypt's cost for passwords hashed from now on. */
  readonly passwordHashCost: ScryptCost;
  /**
   * Apply pending migrations at start (under the migration lock). Off: the server only checks that
   * the schema is current and refuses to start otherwise; `pbs migrate` applies them.
   */
  readonly migrateOnStart: boolean;
  /** Audit rows, events and webhook delivery logs older than this many days are deleted. */
  readonly auditRetentionDays: number;
  /** Timeouts and caps of the API's and the apps listener's HTTP servers (src/listen.ts). */
  readonly serverLimits: ServerLimits;
  /** Whether, and how far, the client address is taken from X-Forwarded-For (src/http/client-address.ts). */
  readonly trustProxy: TrustProxy;
  /** Requests a client address may make per minute that fail before a key is identified; 0: no limit. */
  readonly unauthenticatedRateLimit: number;
  /** Live event streams (GET /v1/events/stream) a key may have open at once in this process. */
  readonly eventStreamsPerKey: number;
  /** How long a quiet event stream waits before sending a heartbeat comment. */
  readonly eventStreamHeartbeatMs: number;
  /** How long an Idempotency-Key's claim outlives its last renewal. */
  readonly idempotencyLockTimeoutMs: number;
  /** How often an idle worker asks the job queue for an agent run or a build. */
  readonly jobPollIntervalMs: number;
  /** How often the job queue looks for jobs whose worker went silent. */
  readonly jobSuperviseIntervalMs: number;
  /** The first wait before a failed job is retried (whole seconds); it doubles up to the max. */
  readonly jobRetryDelayMs: number;
  readonly jobRetryDelayMaxMs: number;
  /** The longest a webhook delivery attempt may take; a claim lasts this plus a margin. */
  readonly webhookAttemptTimeoutMs: number;
  /** How often an idle delivery worker looks for due deliveries. */
  readonly webhookPollIntervalMs: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** How a variable's text becomes a value, and how its values and default read in the docs. */
interface Parser<T> {
  /** What a value may be, as the docs say it: "an integer from 1 to 64". */
  readonly accepts: string;
  /** The value when unset, as it is written in the variable; undefined: nothing (the meaning says what that does). */
  readonly default: string | undefined;
  /** The value of `raw` (undefined when unset or empty); throws ConfigError naming the variable. */
  readonly parse: (name: string, raw: string | undefined) => T;
}

/** One environment variable: its parser, and what it does (Markdown, rendered into docs/configuration.md). */
export interface Variable<T = unknown> extends Parser<T> {
  readonly group: keyof typeof groups;
  readonly meaning: string;
  /** How a deployment of several replicas sets it. */
  readonly replicas: string;
}

/** The sections of docs/configuration.md, in order. */
export const groups = {
  server: "The server and its storage",
  apps: "Published apps",
  agents: "Agent runs and builds",
  webhooks: "Webhooks",
  events: "Event streams",
  limits: "HTTP limits and the client address",
} as const;

/** Every variable the server reads, in the order docs/configuration.md lists them. */
export const variables = {
  PORT: {
    group: "server",
    ...integer(8080, 0, 65535),
    meaning: "The port the API listens on (on `HOST`).",
    replicas: "Per replica when several share a host; the image's is 8080.",
  },
  HOST: {
    group: "server",
    ...text("an IP address or a host name", "0.0.0.0"),
    meaning: "The address both listeners (the API and published apps) bind.",
    replicas: "The image binds `0.0.0.0`.",
  },
  PUBLIC_URL: {
    group: "server",
    ...origin(),
    default: "http://<HOST>:<port>",
    meaning:
      "Where people and OAuth clients reach the API, as an origin (`https://api.example.com`, no path): the OAuth issuer, and the settings console's origin, which its forms must come from (CSRF). With `https` the console's cookies are `Secure` and `__Host-` prefixed. Unset: the address and port the API listens on (`localhost` when `HOST` is `0.0.0.0` or `::`; with `PORT=0`, the port it was given).",
    replicas: "The load balancer's public origin, on every replica.",
  },
  DATA_DIR: {
    group: "server",
    ...text("a directory, relative to the working directory or absolute", "./data"),
    meaning:
      "The embedded database (PGlite) and the admin socket through which `pbs` reaches a running server. One server per data directory.",
    replicas: "Unused with `DATABASE_URL` (no volume needed).",
  },
  DATABASE_URL: {
    group: "server",
    ...url(["postgres:", "postgresql:"]),
    meaning:
      "A PostgreSQL database instead of the embedded one: run as many replicas as you like. Point it at PostgreSQL or at a session-mode pool: each replica keeps a `LISTEN` connection, which a pooler in transaction mode (PgBouncer) does not carry.",
    replicas: "The same on every replica, on `pbs` and on the migration step.",
  },
  DATABASE_POOL_SIZE: {
    group: "server",
    ...integer(10, 1, 1000),
    meaning:
      "Connections each process's pool may open. On PostgreSQL a replica holds one more, outside the pool, for `LISTEN`.",
    replicas: "Replicas × (pool + 1) must fit PostgreSQL's `max_connections`.",
  },
  REDIS_URL: {
    group: "server",
    ...url(["redis:", "rediss:"]),
    meaning:
      "A Redis server for the rate-limit counters, shared across replicas. Without it they live in PostgreSQL when `DATABASE_URL` is set, else in the process's memory.",
    replicas: "The same on every replica.",
  },
  MIGRATE_ON_START: {
    group: "server",
    ...boolean(true),
    meaning:
      "Apply pending migrations at start (under the migration lock). `false`: only check that the schema is current, and refuse to start otherwise; `pbs migrate` applies them ([deployment](deployment.md#migrations)).",
    replicas: "`false` on replicas, with a `pbs migrate` step before each release.",
  },
  CURSOR_SECRET: {
    group: "server",
    ...secret(),
    meaning:
      "Signs pagination cursors. Unset: a secret generated once and kept in the database, which every replica shares.",
    replicas: "The same on every replica, or unset.",
  },
  LOG_LEVEL: {
    group: "server",
    ...oneOf(logLevels, "info"),
    meaning: "How much the server logs: JSON lines (pino) on standard output, each with its request id.",
    replicas: "Any; collect standard output.",
  },
  PASSWORD_HASH_COST: {
    group: "server",
    ...scryptCost(),
    meaning:
      "scrypt's cost for console passwords hashed from now on; the default is OWASP's minimum, about half a second of one core. Stored hashes keep their own cost. The test suites lower it.",
    replicas: "The same on every replica.",
  },
  IDEMPOTENCY_LOCK_TIMEOUT: {
    group: "server",
    ...duration(IDEMPOTENCY_LOCK_TIMEOUT_MS, 1_000, 60 * 60_000),
    meaning:
      "How long an `Idempotency-Key`'s claim outlives its last renewal. A request under way renews its claim every third of this; one cut by a crash leaves its key in use (`409 idempotency_key_in_use`) until then.",
    replicas: "The same on every replica.",
  },
  AUDIT_RETENTION_DAYS: {
    group: "server",
    ...integer(DEFAULT_AUDIT_RETENTION_DAYS, 1, 3650),
    meaning:
      "Days audit rows, events and webhook delivery logs are kept; a job deletes older ones every ten minutes ([operations](operations.md#retention)).",
    replicas: "The same on every replica (the job runs on one replica at a time).",
  },
  APPS_PORT: {
    group: "apps",
    ...integer(8081, 0, 65535),
    meaning: "The port of the listener that serves published apps (on `HOST`), never on the API's origin.",
    replicas: "Per replica, behind the load balancer too.",
  },
  APPS_DOMAIN: {
    group: "apps",
    ...domain(),
    meaning:
      "A wildcard domain behind TLS (such as `apps.example.com`): apps are then served at `https://<label>.<APPS_DOMAIN>/`. Unset: at `http://<label>.localhost:<APPS_PORT>/`.",
    replicas: "The same on every replica; its wildcard DNS points at the load balancer.",
  },
  AGENT_CONCURRENCY: {
    group: "agents",
    ...integer(2, 1, 64),
    meaning: "Agent runs (and deployment builds) this process works on at once.",
    replicas: "Per replica, so the service works on replicas × this at once.",
  },
  AGENT_RUN_TIMEOUT: {
    group: "agents",
    ...duration(10 * 60_000, 1_000, DAY_MS),
    meaning: "A run's time limit; past it the run fails with `timeout`.",
    replicas: "The same on every replica.",
  },
  PLAN_RUN_CONCURRENCY: {
    group: "agents",
    ...planCaps(PLAN_CONCURRENCY),
    meaning:
      'Agent runs one tenant (an environment of a workspace) may have in progress at once, by plan; more wait, `queued`, and free slots go to tenants in turn (docs/operations.md, "Fair share"). Plans left out keep their default. A plan change applies to runs queued after it.',
    replicas: "The same on every replica: the cap counts the tenant's runs on all of them.",
  },
  PLAN_BUILD_CONCURRENCY: {
    group: "agents",
    ...planCaps(PLAN_CONCURRENCY),
    meaning: "The same for deployment builds.",
    replicas: "The same on every replica.",
  },
  BUILD_WORKERS: {
    group: "agents",
    ...integer(1, 1, 64),
    meaning:
      "Worker threads this process runs deployment builds and the built-in agent's edits in; more builds than threads wait their turn.",
    replicas: "Per replica; each thread may use a core and up to 512 MB of heap while it works.",
  },
  BUILD_TIMEOUT: {
    group: "agents",
    // At most 10 minutes: a deployment's job expires (and is retried) after 15.
    ...duration(60_000, 1_000, 10 * 60_000),
    meaning:
      "A build's (or an edit's) time limit in its thread. Past it, or past 512 MB of heap, the thread is replaced and the deployment (or run) fails with an error naming the limit.",
    replicas: "The same on every replica.",
  },
  AGENT_BASE_URL: {
    group: "agents",
    ...url(["http:", "https:"]),
    meaning:
      "An OpenAI-compatible API (`…/v1`): every agent value then runs on `POST {AGENT_BASE_URL}/chat/completions` with file tools. Unset: the built-in offline agent builds a small working app from its catalogue, deterministically (docs/agents.md).",
    replicas: "The same on every replica.",
  },
  AGENT_MODEL: {
    group: "agents",
    ...text("the model's name, as the API knows it"),
    meaning: "The model to ask; required with `AGENT_BASE_URL`.",
    replicas: "The same on every replica.",
  },
  AGENT_API_KEY: {
    group: "agents",
    ...text("the key"),
    meaning: "Sent as `Authorization: Bearer …` to the model's API.",
    replicas: "The same on every replica; it is a secret: inject it, never bake it into the image.",
  },
  JOB_POLL_INTERVAL: {
    group: "agents",
    ...duration(1_000, 500, 60_000),
    meaning: "How often an idle worker asks the job queue for an agent run or a build.",
    replicas: "Per replica; each asks this often when idle.",
  },
  JOB_SUPERVISE_INTERVAL: {
    group: "agents",
    ...duration(10_000, 1_000, 10 * 60_000),
    meaning:
      "How often the job queue looks for jobs whose worker went silent (its heartbeat, every 5 s, not renewed for 10 s: the process died). With the heartbeat it sets how soon such a job is retried, by this process or another replica.",
    replicas: "The same on every replica.",
  },
  JOB_RETRY_DELAY: {
    group: "agents",
    ...wholeSeconds(2_000, 1_000, 60 * 60_000),
    meaning:
      "The wait before a failed job (its process died, or storage failed) is tried again; it doubles with each retry, up to `JOB_RETRY_DELAY_MAX`, for 8 retries. (A run the agent fails is not retried: it ends `failed`.)",
    replicas: "The same on every replica.",
  },
  JOB_RETRY_DELAY_MAX: {
    group: "agents",
    ...wholeSeconds(5 * 60_000, 1_000, 60 * 60_000),
    meaning: "The longest wait between a job's retries.",
    replicas: "The same on every replica.",
  },
  WEBHOOK_CONCURRENCY: {
    group: "webhooks",
    ...integer(10, 1, 1000),
    meaning: "Webhook delivery attempts in flight at once in this process (at most one per endpoint).",
    replicas: "Per replica.",
  },
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: {
    group: "webhooks",
    ...boolean(false),
    meaning:
      "Local development only: webhook URLs may be plain `http` and reach loopback and private addresses. Otherwise only `https` URLs to public addresses are accepted and delivered to ([webhooks](webhooks.md)).",
    replicas: "`false` in production.",
  },
  WEBHOOK_RETRY_SCHEDULE: {
    group: "webhooks",
    ...durations(RETRY_SCHEDULE_MS),
    meaning: "The waits between a delivery's attempts; after the last, the delivery is `failed`.",
    replicas: "The same on every replica.",
  },
  WEBHOOK_ATTEMPT_TIMEOUT: {
    group: "webhooks",
    ...duration(10_000, 1_000, 60_000),
    meaning:
      "A delivery attempt's time limit, past which it counts as failed and is retried. A replica claims a delivery for this plus a margin (as long again, at most 5 s); a dead replica's claimed deliveries are sent again once it ends.",
    replicas: "The same on every replica.",
  },
  WEBHOOK_POLL_INTERVAL: {
    group: "webhooks",
    ...duration(250, 10, 60_000),
    meaning: "How often an idle delivery worker looks for due deliveries.",
    replicas: "Per replica; each looks this often when idle.",
  },
  EVENT_STREAMS_PER_KEY: {
    group: "events",
    ...integer(DEFAULT_EVENT_STREAMS_PER_KEY, 1, 1000),
    meaning:
      "Live event streams (`GET /v1/events/stream`) a key may have open at once on this process; one more answers `429 too_many_streams`.",
    replicas: "Per replica, so a key may hold replicas × this in all.",
  },
  EVENT_STREAM_HEARTBEAT: {
    group: "events",
    ...duration(DEFAULT_EVENT_STREAM_SETTINGS.heartbeatMs, 100, 10 * 60_000),
    meaning: "How long a quiet event stream waits before sending a heartbeat comment, so proxies keep the connection.",
    replicas: "Below your proxies' idle timeout.",
  },
  HEADERS_TIMEOUT: {
    group: "limits",
    ...duration(DEFAULT_SERVER_LIMITS.headersTimeoutMs, 1_000, 10 * 60_000),
    meaning:
      "A request's headers must be in within this of the connection or of the request's start: a client trickling header lines (slow-loris), or a connection that never sends a byte, is cut with `408`. At most `REQUEST_TIMEOUT`.",
    replicas: "The same on every replica; at most the load balancer's own.",
  },
  REQUEST_TIMEOUT: {
    group: "limits",
    ...duration(DEFAULT_SERVER_LIMITS.requestTimeoutMs, 1_000, DAY_MS),
    meaning:
      "A whole request, body included, must be in within this; else `408`. A 25 MiB upload fits at about 0.7 Mbit/s; raise it for slower uploaders.",
    replicas: "The same on every replica; at most the load balancer's server timeout.",
  },
  KEEP_ALIVE_TIMEOUT: {
    group: "limits",
    ...duration(DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs, 1_000, 60 * 60_000),
    meaning:
      "How long an idle keep-alive connection is kept. Longer than the idle timeout of the load balancer in front (AWS ALB 60 s, nginx 60–75 s), so that the balancer closes idle connections, never the server: otherwise the balancer may send a request on a connection the server is closing, and answer its client 502. Behind Google Cloud's load balancer (600 s) set `620s`.",
    replicas: "Longer than the load balancer's idle (keep-alive) timeout.",
  },
  MAX_CONNECTIONS: {
    group: "limits",
    ...integer(DEFAULT_SERVER_LIMITS.maxConnections, 1, 1_000_000),
    meaning:
      "Connections at once, per listener; further ones are closed as they arrive. Keep it below the process's file limit (`ulimit -n`) less the database pool and some room.",
    replicas: "Per replica, below its file limit.",
  },
  MAX_HEADER_SIZE: {
    group: "limits",
    ...integer(DEFAULT_SERVER_LIMITS.maxHeaderSize, 1024, 1024 * 1024),
    meaning: "Bytes of request headers; larger ones get `431`.",
    replicas: "The same on every replica.",
  },
  TRUST_PROXY: {
    group: "limits",
    ...trustProxy(),
    meaning:
      "Whether the client address (the audit log, the console's sign-in throttle, the per-address limit) comes from `X-Forwarded-For`: `false`; `true` or a number of proxy hops; or the proxies' addresses and CIDR ranges (`10.0.0.0/8,192.168.1.7`, also `loopback`, `linklocal`, `uniquelocal`). How the address is read: [operations](operations.md#the-client-address).",
    replicas:
      "The number of proxies in front (`1` behind one load balancer), or their addresses; unset, every request seems to come from the balancer.",
  },
  UNAUTHENTICATED_RATE_LIMIT: {
    group: "limits",
    ...integer(DEFAULT_UNAUTHENTICATED_LIMIT, 0, 1_000_000),
    meaning:
      "Requests a client address may make per minute that fail before a key (or, on the pages, a session) is identified; `0`: no limit ([operations](operations.md#unauthenticated-traffic)).",
    replicas: "Counted per replica, so an address may fail replicas × this a minute.",
  },
} satisfies Record<string, Variable>;

type Name = keyof typeof variables;
type Value<N extends Name> = ReturnType<(typeof variables)[N]["parse"]>;
type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates the configuration; throws ConfigError naming the variable at fault. */
export function loadConfig(env: Env = process.env): Config {
  const read = <N extends Name>(name: N): Value<N> => {
    // An empty variable counts as unset: `DATABASE_URL= npm start` means "no database URL".
    const value = env[name]?.trim();
    return variables[name].parse(name, value ? value : undefined) as Value<N>;
  };
  const dataDir = resolve(read("DATA_DIR"));
  const port = read("PORT");
  return Object.freeze({
    port,
    host: read("HOST"),
    dataDir,
    databaseUrl: read("DATABASE_URL"),
    databasePoolSize: read("DATABASE_POOL_SIZE"),
    redisUrl: read("REDIS_URL"),
    cursorSecret: read("CURSOR_SECRET"),
    logLevel: read("LOG_LEVEL"),
    adminSocketPath: join(dataDir, "admin.sock"),
    agentConcurrency: read("AGENT_CONCURRENCY"),
    agentRunTimeoutMs: read("AGENT_RUN_TIMEOUT"),
    planRunConcurrency: read("PLAN_RUN_CONCURRENCY"),
    planBuildConcurrency: read("PLAN_BUILD_CONCURRENCY"),
    buildWorkers: read("BUILD_WORKERS"),
    buildTimeoutMs: read("BUILD_TIMEOUT"),
    agent: agentEndpoint(read("AGENT_BASE_URL"), read("AGENT_MODEL"), read("AGENT_API_KEY")),
    appsPort: read("APPS_PORT"),
    appsDomain: read("APPS_DOMAIN"),
    webhookConcurrency: read("WEBHOOK_CONCURRENCY"),
    webhookAllowPrivateNetworks: read("WEBHOOK_ALLOW_PRIVATE_NETWORKS"),
    webhookRetrySchedule: read("WEBHOOK_RETRY_SCHEDULE"),
    publicUrl: read("PUBLIC_URL"),
    passwordHashCost: read("PASSWORD_HASH_COST"),
    migrateOnStart: read("MIGRATE_ON_START"),
    auditRetentionDays: read("AUDIT_RETENTION_DAYS"),
    serverLimits: serverLimits({
      headersTimeoutMs: read("HEADERS_TIMEOUT"),
      requestTimeoutMs: read("REQUEST_TIMEOUT"),
      keepAliveTimeoutMs: read("KEEP_ALIVE_TIMEOUT"),
      idleTimeoutMs: DEFAULT_SERVER_LIMITS.idleTimeoutMs,
      unreadBodyBytes: DEFAULT_SERVER_LIMITS.unreadBodyBytes,
      unreadBodyMs: DEFAULT_SERVER_LIMITS.unreadBodyMs,
      maxConnections: read("MAX_CONNECTIONS"),
      maxHeaderSize: read("MAX_HEADER_SIZE"),
    }),
    trustProxy: read("TRUST_PROXY"),
    unauthenticatedRateLimit: read("UNAUTHENTICATED_RATE_LIMIT"),
    eventStreamsPerKey: read("EVENT_STREAMS_PER_KEY"),
    eventStreamHeartbeatMs: read("EVENT_STREAM_HEARTBEAT"),
    idempotencyLockTimeoutMs: read("IDEMPOTENCY_LOCK_TIMEOUT"),
    jobPollIntervalMs: read("JOB_POLL_INTERVAL"),
    jobSuperviseIntervalMs: read("JOB_SUPERVISE_INTERVAL"),
    ...retryDelays(read("JOB_RETRY_DELAY"), read("JOB_RETRY_DELAY_MAX")),
    webhookAttemptTimeoutMs: read("WEBHOOK_ATTEMPT_TIMEOUT"),
    webhookPollIntervalMs: read("WEBHOOK_POLL_INTERVAL"),
  });
}

// What holds between variables, checked once each is valid on its own.

function serverLimits(limits: ServerLimits): ServerLimits {
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      "HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT (the headers are part of the request)",
    );
  }
  return limits;
}

function retryDelays(jobRetryDelayMs: number, jobRetryDelayMaxMs: number) {
  if (jobRetryDelayMaxMs < jobRetryDelayMs) {
    throw new ConfigError("JOB_RETRY_DELAY_MAX must not be shorter than JOB_RETRY_DELAY");
  }
  return { jobRetryDelayMs, jobRetryDelayMaxMs };
}

function agentEndpoint(
  baseUrl: string | undefined,
  model: string | undefined,
  apiKey: string | undefined,
): Config["agent"] {
  if (baseUrl === undefined) {
    if (apiKey !== undefined || model !== undefined) {
      const name = apiKey !== undefined ? "AGENT_API_KEY" : "AGENT_MODEL";
      throw new ConfigError(`${name} is set but AGENT_BASE_URL is not; set AGENT_BASE_URL to use a model`);
    }
    return undefined;
  }
  if (model === undefined)
    throw new ConfigError("AGENT_MODEL must be set with AGENT_BASE_URL (the model every agent runs on)");
  return { baseUrl, apiKey, model };
}

// The parsers.

/** Any text; `accepts` says what it should be. */
function text(accepts: string, fallback: string): Parser<string>;
function text(accepts: string): Parser<string | undefined>;
function text(accepts: string, fallback?: string): Parser<string | undefined> {
  return { accepts, default: fallback, parse: (_name, raw) => raw ?? fallback };
}

function integer(fallback: number, min: number, max: number): Parser<number> {
  return {
    accepts: `an integer from ${min} to ${max}`,
    default: String(fallback),
    parse(name, raw) {
      if (raw === undefined) return fallback;
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < min || value > max) {
        throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
      }
      return value;
    },
  };
}

function boolean(fallback: boolean): Parser<boolean> {
  return {
    accepts: "`true` or `false` (also `1` or `0`, `yes` or `no`)",
    default: String(fallback),
    parse(name, raw) {
      if (raw === undefined) return fallback;
      const value = raw.toLowerCase();
      if (["true", "1", "yes"].includes(value)) return true;
      if (["false", "0", "no"].includes(value)) return false;
      throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
    },
  };
}

/** A duration: milliseconds as a bare integer is ambiguous, so a unit is allowed: `600s`, `10m`, `1h`, `500ms`; bare = seconds. */
function duration(fallback: number, min: number, max: number): Parser<number> {
  return {
    accepts: `a duration from ${written(min)} to ${written(max)}`,
    default: written(fallback),
    parse(name, raw) {
      if (raw === undefined) return fallback;
      const match = /^(\d+)(ms|s|m|h)?$/.exec(raw);
      const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match?.[2] ?? "s") as "ms" | "s" | "m" | "h"];
      const value = match ? Number(match[1]) * unit : Number.NaN;
      if (!(value >= min && value <= max)) {
        throw new ConfigError(
          `${name} must be a duration from ${written(min)} to ${written(max)} (e.g. 600, 600s, 10m), got ${JSON.stringify(raw)}`,
        );
      }
      return value;
    },
  };
}

/** A duration in whole seconds: the job queue counts its retry delays in seconds. */
function wholeSeconds(fallback: number, min: number, max: number): Parser<number> {
  const any = duration(fallback, min, max);
  return {
    accepts: `${any.accepts}, in whole seconds`,
    default: any.default,
    parse(name, raw) {
      const value = any.parse(name, raw);
      if (value % 1000 !== 0) throw new ConfigError(`${name} must be a whole number of seconds (e.g. 2s, 5m)`);
      return value;
    },
  };
}

/**
 * A comma-separated list of durations (`5s,5m,30m`): at most 20, each up to a day. Unset is
 * undefined, so that the code that owns `shown` (the schedule used then) keeps it.
 */
function durations(shown: readonly number[]): Parser<number[] | undefined> {
  const each = duration(0, 1, DAY_MS);
  return {
    accepts: `a comma-separated list of at most 20 durations, each from 1ms to ${written(DAY_MS)}`,
    default: shown.map(written).join(","),
    parse(name, raw) {
      if (raw === undefined) return undefined;
      const parts = raw.split(",").map((part) => part.trim());
      if (parts.length > 20) throw new ConfigError(`${name} may list at most 20 durations`);
      return parts.map((part) => each.parse(name, part));
    },
  };
}

/** Caps by plan, `plan=n` separated by commas (`free=1,team=6`); plans left out keep `defaults`. */
function planCaps(defaults: Readonly<Record<Plan, number>>): Parser<Readonly<Record<Plan, number>>> {
  const plans = Object.keys(defaults) as Plan[];
  const shown = Object.entries(defaults)
    .map(([plan, cap]) => `${plan}=${cap}`)
    .join(",");
  return {
    accepts: `a comma-separated list of \`plan=n\` (plans: ${plans.join(", ")}; n from 1 to 1000)`,
    default: shown,
    parse(name, raw) {
      if (raw === undefined) return defaults;
      const caps: Record<Plan, number> = { ...defaults };
      for (const part of raw.split(",")) {
        const [plan, cap] = part.trim().split("=");
        const value = Number(cap);
        if (!plans.includes(plan as Plan) || !/^\d+$/.test(cap ?? "") || value < 1 || value > 1000) {
          throw new ConfigError(
            `${name} must list plan=n (plans: ${plans.join(", ")}; n from 1 to 1000), e.g. ${shown}; got ${JSON.stringify(raw)}`,
          );
        }
        caps[plan as Plan] = value;
      }
      return caps;
    },
  };
}

/** A duration as it is written in a variable, in its largest whole unit: `10m`, not `0.1666h`. */
function written(ms: number): string {
  const [unit, size] = (
    [
      ["h", 3_600_000],
      ["m", 60_000],
      ["s", 1000],
    ] as const
  ).find(([, size]) => ms % size === 0) ?? ["ms", 1];
  return `${ms / size}${unit}`;
}

function url(protocols: readonly string[]): Parser<string | undefined> {
  const schemes = protocols.map((p) => `${p}//`).join(" or ");
  return {
    accepts: `a URL starting with ${protocols.map((p) => `\`${p}//\``).join(" or ")}`,
    default: undefined,
    parse(name, raw) {
      if (raw === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        // The value may hold a password: name the variable, not its content.
        throw new ConfigError(`${name} is not a valid URL`);
      }
      if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${schemes}`);
      return raw;
    },
  };
}

/** An origin (`https://api.example.com`, `http://localhost:8080`): no path, query or credentials. */
function origin(): Parser<string | undefined> {
  const anyUrl = url(["http:", "https:"]);
  return {
    accepts: "an origin: `http://` or `https://`, a host and maybe a port, no path",
    default: undefined,
    parse(name, raw) {
      const value = anyUrl.parse(name, raw);
      if (value === undefined) return undefined;
      const parsed = new URL(value);
      if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== "/") {
        throw new ConfigError(
          `${name} must be an origin such as https://api.example.com (no path), got ${JSON.stringify(raw)}`,
        );
      }
      return parsed.origin;
    },
  };
}

/** `N,r,p` for scrypt: N a power of two from 2^10 to 2^20, r 1–32, p 1–16. */
function scryptCost(): Parser<ScryptCost> {
  const { N, r, p } = DEFAULT_SCRYPT_COST;
  return {
    accepts: "`N,r,p`: N a power of two from 1024 to 1048576, r from 1 to 32, p from 1 to 16",
    default: `${N},${r},${p}`,
    parse(name, raw) {
      if (raw === undefined) return DEFAULT_SCRYPT_COST;
      const [N, r, p] = raw.split(",").map((part) => Number(part.trim()));
      const valid = (value: number | undefined, min: number, max: number) =>
        Number.isInteger(value) && value! >= min && value! <= max;
      if (!valid(N, 1024, 2 ** 20) || (N! & (N! - 1)) !== 0 || !valid(r, 1, 32) || !valid(p, 1, 16)) {
        throw new ConfigError(
          `${name} must be N,r,p with N a power of two from 1024 to 1048576 (e.g. 32768,8,3), got ${JSON.stringify(raw)}`,
        );
      }
      return { N: N!, r: r!, p: p! };
    },
  };
}

function domain(): Parser<string | undefined> {
  return {
    accepts: "a domain name",
    default: undefined,
    parse(name, raw) {
      if (raw === undefined) return undefined;
      const value = raw.toLowerCase().replace(/\.$/, "");
      if (
        !/^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(value)
      ) {
        throw new ConfigError(`${name} must be a domain name such as apps.example.com, got ${JSON.stringify(raw)}`);
      }
      return value;
    },
  };
}

function oneOf<const T extends readonly string[]>(allowed: T, fallback: T[number]): Parser<T[number]> {
  return {
    accepts: `one of ${allowed.map((value) => `\`${value}\``).join(", ")}`,
    default: fallback,
    parse(name, raw) {
      if (raw === undefined) return fallback;
      const value = raw.toLowerCase();
      if (!allowed.includes(value)) {
        throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}`);
      }
      return value;
    },
  };
}

function secret(): Parser<string | undefined> {
  return {
    accepts: "at least 16 bytes of text",
    default: undefined,
    parse(name, raw) {
      if (raw !== undefined && Buffer.byteLength(raw) < 16)
        throw new ConfigError(`${name} must be at least 16 bytes long`);
      return raw;
    },
  };
}

function trustProxy(): Parser<TrustProxy> {
  return {
    accepts: "`false`, `true`, a number of hops from 0 to 20, or a comma-separated list of addresses and CIDR ranges",
    default: "false",
    parse(name, raw) {
      try {
        return parseTrustProxy(raw);
      } catch (error) {
        throw new ConfigError(
          `${name} must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses and CIDR ranges: ${(error as Error).message}`,
        );
      }
    },
  };
}
