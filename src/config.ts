// The process's configuration: environment variables read and validated once, at start, so a typo
// fails loudly before anything listens, and the rest of the code gets typed values.
import { join, resolve } from "node:path";
import type { AgentEndpoint } from "./agents/index.ts";
import { DEFAULT_SCRYPT_COST, type ScryptCost } from "./domain/passwords.ts";
import { DEFAULT_UNAUTHENTICATED_LIMIT } from "./http/address-limit.ts";
import { DEFAULT_EVENT_STREAMS_PER_KEY } from "./domain/event-stream.ts";
import { DEFAULT_EVENT_STREAM_SETTINGS } from "./http/event-stream.ts";
import { parseTrustProxy, type TrustProxy } from "./http/client-address.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./listen.ts";
import { logLevels, type LogLevel } from "./logger.ts";

/** How long audit rows, events and webhook delivery logs are kept unless AUDIT_RETENTION_DAYS says otherwise. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

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
   */
  readonly publicUrl: string;
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
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates the configuration; throws ConfigError naming the variable at fault. */
export function loadConfig(env: Env = process.env): Config {
  // An empty variable counts as unset: `DATABASE_URL= npm start` means "no database URL".
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const dataDir = resolve(read("DATA_DIR") ?? "./data");
  const port = integer("PORT", read("PORT"), 8080, 0, 65535);
  return Object.freeze({
    port,
    host: read("HOST") ?? "0.0.0.0",
    dataDir,
    databaseUrl: url("DATABASE_URL", read("DATABASE_URL"), ["postgres:", "postgresql:"]),
    databasePoolSize: integer("DATABASE_POOL_SIZE", read("DATABASE_POOL_SIZE"), 10, 1, 1000),
    redisUrl: url("REDIS_URL", read("REDIS_URL"), ["redis:", "rediss:"]),
    cursorSecret: secret("CURSOR_SECRET", read("CURSOR_SECRET")),
    logLevel: oneOf("LOG_LEVEL", read("LOG_LEVEL"), logLevels, "info"),
    adminSocketPath: join(dataDir, "admin.sock"),
    agentConcurrency: integer("AGENT_CONCURRENCY", read("AGENT_CONCURRENCY"), 2, 1, 64),
    agentRunTimeoutMs: duration("AGENT_RUN_TIMEOUT", read("AGENT_RUN_TIMEOUT"), 10 * 60_000, 1_000, 24 * 60 * 60_000),
    buildWorkers: integer("BUILD_WORKERS", read("BUILD_WORKERS"), 1, 1, 64),
    // At most 10 minutes: a deployment's job expires (and is retried) after 15.
    buildTimeoutMs: duration("BUILD_TIMEOUT", read("BUILD_TIMEOUT"), 60_000, 1_000, 10 * 60_000),
    agent: agentEndpoint(read),
    appsPort: integer("APPS_PORT", read("APPS_PORT"), 8081, 0, 65535),
    appsDomain: domain("APPS_DOMAIN", read("APPS_DOMAIN")),
    webhookConcurrency: integer("WEBHOOK_CONCURRENCY", read("WEBHOOK_CONCURRENCY"), 10, 1, 1000),
    webhookAllowPrivateNetworks: boolean("WEBHOOK_ALLOW_PRIVATE_NETWORKS", read("WEBHOOK_ALLOW_PRIVATE_NETWORKS")),
    webhookRetrySchedule: durations("WEBHOOK_RETRY_SCHEDULE", read("WEBHOOK_RETRY_SCHEDULE")),
    publicUrl: origin("PUBLIC_URL", read("PUBLIC_URL")) ?? `http://localhost:${port}`,
    passwordHashCost: scryptCost("PASSWORD_HASH_COST", read("PASSWORD_HASH_COST")),
    migrateOnStart: boolean("MIGRATE_ON_START", read("MIGRATE_ON_START"), true),
    auditRetentionDays: integer(
      "AUDIT_RETENTION_DAYS",
      read("AUDIT_RETENTION_DAYS"),
      DEFAULT_AUDIT_RETENTION_DAYS,
      1,
      3650,
    ),
    serverLimits: serverLimits(read),
    trustProxy: trustProxy("TRUST_PROXY", read("TRUST_PROXY")),
    unauthenticatedRateLimit: integer(
      "UNAUTHENTICATED_RATE_LIMIT",
      read("UNAUTHENTICATED_RATE_LIMIT"),
      DEFAULT_UNAUTHENTICATED_LIMIT,
      0,
      1_000_000,
    ),
    eventStreamsPerKey: integer(
      "EVENT_STREAMS_PER_KEY",
      read("EVENT_STREAMS_PER_KEY"),
      DEFAULT_EVENT_STREAMS_PER_KEY,
      1,
      1000,
    ),
    eventStreamHeartbeatMs: duration(
      "EVENT_STREAM_HEARTBEAT",
      read("EVENT_STREAM_HEARTBEAT"),
      DEFAULT_EVENT_STREAM_SETTINGS.heartbeatMs,
      100,
      10 * 60_000,
    ),
  });
}

function trustProxy(name: string, raw: string | undefined): TrustProxy {
  try {
    return parseTrustProxy(raw);
  } catch (error) {
    throw new ConfigError(
      `${name} must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses and CIDR ranges: ${(error as Error).message}`,
    );
  }
}

function serverLimits(read: (name: string) => string | undefined): ServerLimits {
  const defaults = DEFAULT_SERVER_LIMITS;
  const limits: ServerLimits = {
    headersTimeoutMs: duration(
      "HEADERS_TIMEOUT",
      read("HEADERS_TIMEOUT"),
      defaults.headersTimeoutMs,
      1_000,
      10 * 60_000,
    ),
    requestTimeoutMs: duration(
      "REQUEST_TIMEOUT",
      read("REQUEST_TIMEOUT"),
      defaults.requestTimeoutMs,
      1_000,
      24 * 60 * 60_000,
    ),
    keepAliveTimeoutMs: duration(
      "KEEP_ALIVE_TIMEOUT",
      read("KEEP_ALIVE_TIMEOUT"),
      defaults.keepAliveTimeoutMs,
      1_000,
      60 * 60_000,
    ),
    idleTimeoutMs: defaults.idleTimeoutMs,
    unreadBodyBytes: defaults.unreadBodyBytes,
    unreadBodyMs: defaults.unreadBodyMs,
    maxConnections: integer("MAX_CONNECTIONS", read("MAX_CONNECTIONS"), defaults.maxConnections, 1, 1_000_000),
    maxHeaderSize: integer("MAX_HEADER_SIZE", read("MAX_HEADER_SIZE"), defaults.maxHeaderSize, 1024, 1024 * 1024),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      "HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT (the headers are part of the request)",
    );
  }
  return limits;
}

function boolean(name: string, raw: string | undefined, fallback = false): boolean {
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  if (["true", "1", "yes"].includes(value)) return true;
  if (["false", "0", "no"].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

/** A comma-separated list of durations (`5s,5m,30m`): at most 20, each up to a day. */
function durations(name: string, raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.length > 20) throw new ConfigError(`${name} may list at most 20 durations`);
  return parts.map((part) => duration(name, part, 0, 1, 24 * 60 * 60_000));
}

function agentEndpoint(read: (name: string) => string | undefined): Config["agent"] {
  const baseUrl = url("AGENT_BASE_URL", read("AGENT_BASE_URL"), ["http:", "https:"]);
  if (baseUrl === undefined) {
    for (const name of ["AGENT_API_KEY", "AGENT_MODEL"]) {
      if (read(name) !== undefined)
        throw new ConfigError(`${name} is set but AGENT_BASE_URL is not; set AGENT_BASE_URL to use a model`);
    }
    return undefined;
  }
  const model = read("AGENT_MODEL");
  if (model === undefined)
    throw new ConfigError("AGENT_MODEL must be set with AGENT_BASE_URL (the model every agent runs on)");
  return { baseUrl, apiKey: read("AGENT_API_KEY"), model };
}

/** A duration: milliseconds as a bare integer is ambiguous, so a unit is allowed: `600s`, `10m`, `1h`, `500ms`; bare = seconds. */
function duration(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
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

/** An origin (`https://api.example.com`, `http://localhost:8080`): no path, query or credentials. */
function origin(name: string, raw: string | undefined): string | undefined {
  const value = url(name, raw, ["http:", "https:"]);
  if (value === undefined) return undefined;
  const parsed = new URL(value);
  if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== "/") {
    throw new ConfigError(
      `${name} must be an origin such as https://api.example.com (no path), got ${JSON.stringify(raw)}`,
    );
  }
  return parsed.origin;
}

/** `N,r,p` for scrypt: N a power of two from 2^10 to 2^20, r 1–32, p 1–16. */
function scryptCost(name: string, raw: string | undefined): ScryptCost {
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
}

function domain(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase().replace(/\.$/, "");
  if (!/^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(value)) {
    throw new ConfigError(`${name} must be a domain name such as apps.example.com, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function url(name: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value may hold a password: name the variable, not its content.
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  }
  return raw;
}

function oneOf<const T extends readonly string[]>(
  name: string,
  raw: string | undefined,
  allowed: T,
  fallback: T[number],
): T[number] {
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  if (!allowed.includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function secret(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && Buffer.byteLength(raw) < 16) throw new ConfigError(`${name} must be at least 16 bytes long`);
  return raw;
}
