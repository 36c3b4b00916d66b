// Per-API-key rate limiting: a sustained quota per minute AND a burst cap per second, two fixed
// windows counted together.
//
// Framework-agnostic: `consume(keyId, plan)` returns a plain result and `rateLimitHeaders(result)`
// the response headers; the HTTP pipeline decides what to do with them (429 key_rate_limited).
//
// Decisions:
// - All or nothing: a request is counted in both windows only when both have room. A refused
//   request uses up no quota, so a client hammering at 100 req/s still gets its 60 answers a minute,
//   not 10 (charging the minute for refused requests would spend it in the first second).
// - One round trip per request whatever the store: one statement on PostgreSQL (the function
//   `rate_limit_consume` of migration 0006, which locks both counters, counts, and undoes the count
//   when a window is full), one script on Redis (both counters share a hash slot), in memory on the
//   embedded default. Windows run on the store's clock (PostgreSQL's `clock_timestamp()`, Redis's
//   expiries), so replicas agree.
// - Counters are keyed by the API key id only (not by plan): a plan change keeps the counts already
//   spent in the window. The window length is part of the counter's name, so limiters configured
//   with other windows never share counts.
// - `X-RateLimit-Limit`, `-Remaining`, `-Used` and `-Reset` always describe one window, the minute
//   ("default"), so a client reading them sees one consistent quota (60, 59, 1, …) rather than
//   figures that jump between the minute's and the second's. The IETF `RateLimit` /
//   `RateLimit-Policy` fields list both policies, each with its own figures, and `Retry-After`
//   says when the window that refused has room again. `result.limit/remaining/resetSeconds` are
//   the "binding" window's: the one with the fewest requests left (ties: the later reset); when
//   refused, the full window with the latest reset.
// - Shared stores (Redis, PostgreSQL) are insured: while the store cannot answer, the process counts
//   in memory instead of refusing or failing every request (limits then hold per process, not
//   globally, each process starting its counts afresh), and goes back to the store as soon as it
//   answers again. A store that fails is left alone for a second before it is tried again, and a
//   Redis command gets 500 ms: a Redis that goes silent (no reset, no answer) costs one request
//   half a second each second, not every request forever.
import type { Redis } from "ioredis";
import type { Pool } from "pg";
import { PLAN_LIMITS, type Plan, type PlanLimits } from "../domain/plans.ts";

// ---------------------------------------------------------------------------------------------
// Plans and policies

export { PLAN_LIMITS, type Plan, type PlanLimits } from "../domain/plans.ts";

export const DEFAULT_PLAN: Plan = "free";

export function isPlan(value: unknown): value is Plan {
  return typeof value === "string" && Object.hasOwn(PLAN_LIMITS, value);
}

/** Window lengths in seconds. Injectable so tests can run a "minute" in a second or two. */
export interface RateLimitWindows {
  readonly longSeconds: number;
  readonly shortSeconds: number;
}

export const DEFAULT_WINDOWS: RateLimitWindows = Object.freeze({ longSeconds: 60, shortSeconds: 1 });

/** Names used in the IETF RateLimit-Policy / RateLimit fields ("address": src/http/address-limit.ts). */
export type PolicyName = "default" | "burst" | "address";

export interface WindowState {
  readonly policy: PolicyName;
  /** Quota of the window (q). */
  readonly limit: number;
  /** Window length in seconds (w). */
  readonly windowSeconds: number;
  /** Requests left in the current window (r), ≥ 0. */
  readonly remaining: number;
  /** Requests counted in the current window (limit − remaining). */
  readonly used: number;
  /** Whole seconds until the window resets (t), ≥ 0. */
  readonly resetSeconds: number;
  /** Unix epoch seconds at which the window resets. */
  readonly resetAt: number;
  /** True when this window refused the request. */
  readonly exceeded: boolean;
}

export interface RateLimitResult {
  readonly allowed: boolean;
  /** Quota of the binding window. */
  readonly limit: number;
  /** Requests left in the binding window. */
  readonly remaining: number;
  /** Whole seconds until the binding window resets. */
  readonly resetSeconds: number;
  /** Unix epoch seconds at which the binding window resets (X-RateLimit-Reset). */
  readonly resetAt: number;
  /** Whole seconds (≥ 1) to wait before retrying; null when allowed. */
  readonly retryAfterSeconds: number | null;
  /** Name of the binding policy. */
  readonly policy: PolicyName;
  /** The plan whose figures applied. */
  readonly plan: Plan;
  /** Both windows, long ("default") first. */
  readonly windows: readonly WindowState[];
}

// ---------------------------------------------------------------------------------------------
// Stores

/** One window of a limiter: its counters' namespace, quota and length. */
export interface WindowSpec {
  readonly name: string;
  readonly limit: number;
  readonly durationMs: number;
}

/** A window's count after the request (before it, when refused) and the time until it resets. */
export interface WindowCount {
  readonly count: number;
  readonly resetInMs: number;
}

export interface ConsumeResult {
  readonly allowed: boolean;
  /** In the order of the windows asked about. */
  readonly windows: readonly WindowCount[];
}

/** Where the counters live. One store serves every plan and both windows. */
export interface RateLimitStore {
  readonly kind: "memory" | "redis" | "postgres";
  /** Counts one request of `key` in every window if every window has room (all or nothing). */
  consume(key: string, windows: readonly WindowSpec[]): Promise<ConsumeResult>;
  /** Releases what the store owns (a Redis connection it opened, a pool it created). */
  close(): Promise<void>;
}

/** Per-process counters. The default on the embedded (single-process) server. */
export function createMemoryStore(): RateLimitStore {
  const counters = new Map<string, { count: number; resetsAt: number }>();
  // Expired counters are dropped now and then, so keys seen once do not stay forever.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [name, counter] of counters) if (counter.resetsAt <= now) counters.delete(name);
  }, 60_000);
  sweep.unref();
  return {
    kind: "memory",
    async consume(key, windows) {
      const now = Date.now();
      const current = windows.map((window) => {
        const name = `${window.name}:${key}`;
        let counter = counters.get(name);
        if (!counter || counter.resetsAt <= now) counters.set(name, (counter = { count: 0, resetsAt: now + window.durationMs }));
        return counter;
      });
      const allowed = current.every((counter, i) => counter.count < windows[i]!.limit);
      if (allowed) for (const counter of current) counter.count++;
      return { allowed, windows: current.map((counter) => ({ count: counter.count, resetInMs: counter.resetsAt - now })) };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/** How long an insured store that failed is left alone before a request tries it again. */
const STORE_RETRY_PAUSE_MS = 1000;
/** How long a Redis command may take before the request is counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A shared store insured by per-process memory counting: used while `ready()` is false, for a
 * request the shared store failed, and for a second after each failure. `onError` hears the first
 * failure of each outage.
 */
function insured(store: RateLimitStore, ready: () => boolean, onError: (error: Error) => void): RateLimitStore {
  const memory = createMemoryStore();
  let failing = false;
  let retryAt = 0;
  return {
    kind: store.kind,
    async consume(key, windows) {
      if (!ready() || (failing && Date.now() < retryAt)) return memory.consume(key, windows);
      try {
        const result = await store.consume(key, windows);
        failing = false;
        return result;
      } catch (error) {
        if (!failing) onError(error instanceof Error ? error : new Error(String(error)));
        failing = true;
        retryAt = Date.now() + STORE_RETRY_PAUSE_MS;
        return memory.consume(key, windows);
      }
    },
    async close() {
      await memory.close();
      await store.close();
    },
  };
}

/**
 * A shared store whose refusals are remembered in this process until the full window resets: a
 * window's count only grows until then, and a refused request charges nothing, so asking the store
 * again could only give the same answer. A key hammering past its limit then costs no round trip
 * (and no turn on its counter's row lock). Keyed by the windows' limits too, so a plan change is
 * asked afresh. Bounded: entries leave when their window resets, and the oldest go first when full.
 */
function rememberingRefusals(store: RateLimitStore, maxKeys = 10_000): RateLimitStore {
  const refused = new Map<string, { until: number; counts: number[]; resetsAt: number[] }>();
  return {
    kind: store.kind,
    async consume(key, windows) {
      const memo = `${key}|${windows.map((window) => `${window.name}=${window.limit}`).join(",")}`;
      const now = Date.now();
      const known = refused.get(memo);
      if (known && known.until > now) {
        return { allowed: false, windows: known.counts.map((count, i) => ({ count, resetInMs: known.resetsAt[i]! - now })) };
      }
      if (known) refused.delete(memo);
      const result = await store.consume(key, windows);
      if (!result.allowed) {
        const full = result.windows.filter((window, i) => window.count >= windows[i]!.limit);
        const until = now + Math.max(0, ...full.map((window) => window.resetInMs));
        if (refused.size >= maxKeys) refused.delete(refused.keys().next().value!);
        refused.set(memo, { until, counts: result.windows.map((window) => window.count), resetsAt: result.windows.map((window) => now + window.resetInMs) });
      }
      return result;
    },
    close: () => store.close(),
  };
}

// Both counters of a key in one hash slot (`{key}`), so the script also runs on Redis Cluster.
const REDIS_CONSUME = `
local counts, resets, allowed = {}, {}, 1
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    ttl = tonumber(ARGV[2 * i])
    redis.call('PEXPIRE', key, ttl)
  end
  counts[i] = count
  resets[i] = ttl
  if count > tonumber(ARGV[2 * i - 1]) then allowed = 0 end
end
if allowed == 0 then
  for i, key in ipairs(KEYS) do
    redis.call('DECR', key)
    counts[i] = counts[i] - 1
  end
end
return {allowed, counts, resets}
`;

type RedisWithConsume = Redis & {
  rateLimitConsume(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, number[], number[]]>;
};

export interface RedisStoreOptions {
  /** An ioredis client to use (not closed by the store), or */
  readonly client?: Redis;
  /** a URL (REDIS_URL) for a connection the store opens and closes. */
  readonly url?: string;
  /** Fall back to per-process memory counting while Redis is not ready (default true). */
  readonly insurance?: boolean;
  /** How long to wait for the first connection before serving from insurance (default 2000 ms). */
  readonly readyTimeoutMs?: number;
  /** Connection errors (ioredis reconnects by itself); default: ignored. */
  readonly onError?: (err: Error) => void;
}

/**
 * Counters shared by every replica through Redis (REDIS_URL). Resolves once the connection is
 * ready (or after `readyTimeoutMs`). While Redis is not ready each request is counted by the
 * in-memory insurance at once, so an outage costs no latency, only precision.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const { Redis } = await import("ioredis");
  const owned = options.client === undefined;
  let client: Redis;
  if (options.client !== undefined) client = options.client;
  else if (options.url !== undefined) client = new Redis(options.url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  else throw new Error("createRedisStore needs a client or a url");
  const onError = options.onError ?? (() => {});
  client.on("error", onError);
  if (client.status !== "ready") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.readyTimeoutMs ?? 2000);
      timer.unref();
      client.once("ready", done);
      function done() {
        clearTimeout(timer);
        client.off("ready", done);
        resolve();
      }
    });
  }
  client.defineCommand("rateLimitConsume", { lua: REDIS_CONSUME });
  const redis = client as RedisWithConsume;
  const store: RateLimitStore = {
    kind: "redis",
    async consume(key, windows) {
      const keys = windows.map((window) => `${window.name}:{${key}}`);
      const args = windows.flatMap((window) => [window.limit, Math.ceil(window.durationMs)]);
      const [allowed, counts, resets] = await redis.rateLimitConsume(keys.length, ...keys, ...args);
      return { allowed: allowed === 1, windows: counts.map((count, i) => ({ count, resetInMs: resets[i]! })) };
    },
    async close() {
      client.off("error", onError);
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
  return options.insurance === false ? store : insured(store, () => client.status === "ready", onError);
}

export interface PostgresStoreOptions {
  /** A node-postgres Pool on a database migrated by this server (not closed by the store), or */
  readonly pool?: Pool;
  /** a connection string (DATABASE_URL) for a small pool the store opens and closes. */
  readonly connectionString?: string;
  /** Fall back to per-process memory counting when the database cannot answer (default true). */
  readonly insurance?: boolean;
  /** The first failure of each outage; default: ignored. */
  readonly onError?: (err: Error) => void;
}

/** How often a store deletes counters whose window has passed (every replica does; harmless). */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Counters shared by every replica through the PostgreSQL database (table `rate_limit_counters` and
 * function `rate_limit_consume`, migration 0006), for deployments that have DATABASE_URL but no
 * Redis. One prepared statement per request.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<RateLimitStore> {
  let pool: Pool;
  const owned = options.pool === undefined;
  if (options.pool !== undefined) pool = options.pool;
  else if (options.connectionString !== undefined) {
    const pg = await import("pg");
    pool = new pg.default.Pool({ connectionString: options.connectionString, max: 4 });
    pool.on("error", () => {});
  } else throw new Error("createPostgresStore needs a pool or a connectionString");
  const sweep = setInterval(() => {
    pool.query("delete from rate_limit_counters where resets_at < clock_timestamp()").catch(() => {});
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  const store: RateLimitStore = {
    kind: "postgres",
    async consume(key, windows) {
      const { rows } = await pool.query<{ allowed: boolean; counts: number[]; reset_in_ms: number[] }>({
        name: "rate_limit_consume",
        text: "select allowed, counts, reset_in_ms from rate_limit_consume($1::text[], $2::integer[], $3::integer[])",
        values: [windows.map((window) => `${window.name}:${key}`), windows.map((window) => window.limit), windows.map((window) => Math.ceil(window.durationMs))],
      });
      const [{ allowed, counts, reset_in_ms }] = rows as [(typeof rows)[number]];
      return { allowed, windows: counts.map((count, i) => ({ count, resetInMs: reset_in_ms[i]! })) };
    },
    async close() {
      clearInterval(sweep);
      if (owned) await pool.end();
    },
  };
  return options.insurance === false ? store : insured(store, () => true, options.onError ?? (() => {}));
}

export interface StoreSelection {
  /** REDIS_URL: wins when set. */
  readonly redisUrl?: string | undefined;
  /** A pool on the shared PostgreSQL database (DATABASE_URL), used when there is no Redis. */
  readonly pgPool?: Pool | undefined;
  /** DATABASE_URL, when no pool is at hand. */
  readonly databaseUrl?: string | undefined;
  /** The store's failures (each outage once, or Redis connection errors), e.g. to log them. */
  readonly onError?: ((err: Error) => void) | undefined;
}

/** Redis when REDIS_URL is given, else Postgres when the server runs on PostgreSQL, else memory. */
export async function selectRateLimitStore(sel: StoreSelection): Promise<RateLimitStore> {
  const onError = sel.onError ? { onError: sel.onError } : {};
  if (sel.redisUrl) return createRedisStore({ url: sel.redisUrl, ...onError });
  if (sel.pgPool) return createPostgresStore({ pool: sel.pgPool, ...onError });
  if (sel.databaseUrl) return createPostgresStore({ connectionString: sel.databaseUrl, ...onError });
  return createMemoryStore();
}

// ---------------------------------------------------------------------------------------------
// The limiter

export interface RateLimiterOptions {
  readonly store?: RateLimitStore;
  readonly plans?: Readonly<Record<Plan, PlanLimits>>;
  readonly windows?: RateLimitWindows;
  /** Namespace of the counters in the store (default "pbs:rl"). */
  readonly keyPrefix?: string;
  /** Clock, for tests (default Date.now). Only used for the reported epoch reset times. */
  readonly now?: () => number;
}

export interface KeyRateLimiter {
  readonly store: RateLimitStore;
  readonly windows: RateLimitWindows;
  /** Charges one request to `keyId` under `plan` (unknown plans fall back to "free"). */
  consume(keyId: string, plan?: string): Promise<RateLimitResult>;
  /** The RateLimit-Policy field value for a plan (stable across responses). */
  policyHeader(plan?: string): string;
  close(): Promise<void>;
}

export function createKeyRateLimiter(options: RateLimiterOptions = {}): KeyRateLimiter {
  const given = options.store ?? createMemoryStore();
  const store = given.kind === "memory" ? given : rememberingRefusals(given);
  const plans = options.plans ?? PLAN_LIMITS;
  const windows = options.windows ?? DEFAULT_WINDOWS;
  const prefix = options.keyPrefix ?? "pbs:rl";
  const now = options.now ?? Date.now;
  if (!(windows.longSeconds > windows.shortSeconds && windows.shortSeconds > 0)) {
    throw new Error("rate-limit windows: need longSeconds > shortSeconds > 0");
  }
  const planOf = (plan: string | undefined): Plan => (isPlan(plan) && Object.hasOwn(plans, plan) ? plan : DEFAULT_PLAN);
  // The two windows of each plan, long ("default") first, built once.
  const specs = new Map(
    (Object.keys(plans) as Plan[]).map((plan) => {
      const limits = plans[plan];
      const parts = [
        { policy: "default" as const, windowSeconds: windows.longSeconds, limit: limits.perMinute },
        { policy: "burst" as const, windowSeconds: windows.shortSeconds, limit: limits.burst },
      ];
      const spec: WindowSpec[] = parts.map((part) => ({ name: `${prefix}:${part.windowSeconds}s`, limit: part.limit, durationMs: part.windowSeconds * 1000 }));
      return [plan, { parts, spec, limits }];
    }),
  );

  function policyHeader(plan?: string): string {
    const { limits } = specs.get(planOf(plan))!;
    return (
      `"default";q=${limits.perMinute};w=${Math.ceil(windows.longSeconds)}, ` +
      `"burst";q=${limits.burst};w=${Math.ceil(windows.shortSeconds)}`
    );
  }

  async function consume(keyId: string, plan?: string): Promise<RateLimitResult> {
    const p = planOf(plan);
    const { parts, spec } = specs.get(p)!;
    const counted = await store.consume(keyId, spec);
    const t = now();
    const ws: WindowState[] = parts.map((part, i) => {
      const { count, resetInMs } = counted.windows[i]!;
      const ms = resetInMs >= 0 ? resetInMs : part.windowSeconds * 1000;
      const exceeded = !counted.allowed && count >= part.limit;
      return {
        policy: part.policy,
        limit: part.limit,
        windowSeconds: part.windowSeconds,
        remaining: exceeded ? 0 : Math.max(0, Math.min(part.limit, part.limit - count)),
        used: exceeded ? part.limit : Math.max(0, Math.min(part.limit, count)),
        resetSeconds: Math.max(0, Math.ceil(ms / 1000)),
        resetAt: Math.ceil((t + ms) / 1000),
        exceeded,
      };
    });
    const binding = pickBinding(ws);
    const retryAfterSeconds = counted.allowed ? null : Math.max(1, ...ws.filter((w) => w.exceeded).map((w) => w.resetSeconds));
    return {
      allowed: counted.allowed,
      limit: binding.limit,
      remaining: binding.remaining,
      resetSeconds: binding.resetSeconds,
      resetAt: binding.resetAt,
      retryAfterSeconds,
      policy: binding.policy,
      plan: p,
      windows: ws,
    };
  }

  return { store, windows, consume, policyHeader, close: () => store.close() };
}

function pickBinding(ws: readonly WindowState[]): WindowState {
  const refused = ws.filter((w) => w.exceeded);
  const pool = refused.length > 0 ? refused : ws;
  return pool.reduce((best, w) => {
    if (refused.length > 0) return w.resetAt > best.resetAt ? w : best;
    if (w.remaining !== best.remaining) return w.remaining < best.remaining ? w : best;
    return w.resetAt > best.resetAt ? w : best;
  });
}

// ---------------------------------------------------------------------------------------------
// Headers

/**
 * Response headers for a rate-limit result:
 * - IETF draft-ietf-httpapi-ratelimit-headers (structured-field lists):
 *   `RateLimit-Policy: "default";q=60;w=60, "burst";q=10;w=1`
 *   `RateLimit: "default";r=59;t=60, "burst";r=9;t=1`
 * - GitHub-style `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Used` and
 *   `X-RateLimit-Reset` (Unix epoch seconds), all of the first (long) window: the minute;
 * - `Retry-After` (whole seconds ≥ 1) when refused.
 */
export function rateLimitHeaders(result: Pick<RateLimitResult, "allowed" | "retryAfterSeconds" | "windows">): Record<string, string> {
  const policy = result.windows.map((w) => `"${w.policy}";q=${w.limit};w=${Math.ceil(w.windowSeconds)}`).join(", ");
  const current = result.windows.map((w) => `"${w.policy}";r=${w.remaining};t=${w.resetSeconds}`).join(", ");
  const minute = result.windows[0]!;
  const headers: Record<string, string> = {
    "RateLimit-Policy": policy,
    RateLimit: current,
    "X-RateLimit-Limit": String(minute.limit),
    "X-RateLimit-Remaining": String(minute.remaining),
    "X-RateLimit-Used": String(minute.used),
    "X-RateLimit-Reset": String(minute.resetAt),
  };
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, result.retryAfterSeconds ?? 1));
  return headers;
}
