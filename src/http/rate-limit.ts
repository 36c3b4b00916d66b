// Per-API-key rate limiting: a sustained quota per minute AND a burst cap per second,
// enforced together as a rate-limiter-flexible RateLimiterUnion of two fixed windows.
//
// Framework-agnostic: `consume(keyId, plan)` returns a plain result and `rateLimitHeaders(result)`
// the response headers; the HTTP pipeline decides what to do with them (429 key_rate_limited).
//
// Decisions:
// - Two fixed windows per key, one RateLimiterUnion per plan. The counters are keyed by the API
//   key id only (not by plan), so a plan change keeps the counts already spent in the window.
// - A refused request does not use up quota in the windows that would have let it through: the
//   union charges every window, so we refund (reward) the windows that accepted. Without this a
//   client hammering at 100 req/s would burn its whole minute in the first second and get 10
//   answers instead of 60. The refusing window keeps its over-count, which is harmless in a fixed
//   window (the expiry is not extended).
// - The numbers reported in X-RateLimit-* / result.limit/remaining/resetSeconds come from the
//   "binding" window: the one with the fewest requests left (ties: the later reset); when refused,
//   the refusing window with the latest reset, so Retry-After and X-RateLimit-Reset agree. The IETF
//   `RateLimit` / `RateLimit-Policy` fields list both policies, each with its own figures.
// - Shared stores (Redis, Postgres) get an in-memory insurance limiter: if the store is down the
//   process falls back to per-process counting rather than refusing or erroring every request.
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterUnion,
} from "rate-limiter-flexible";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { Redis } from "ioredis";
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

/** Names used in the IETF RateLimit-Policy / RateLimit fields. */
export type PolicyName = "default" | "burst";

export interface WindowState {
  readonly policy: PolicyName;
  /** Quota of the window (q). */
  readonly limit: number;
  /** Window length in seconds (w). */
  readonly windowSeconds: number;
  /** Requests left in the current window (r), ≥ 0. */
  readonly remaining: number;
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

export interface LimiterSpec {
  readonly keyPrefix: string;
  readonly points: number;
  readonly durationSeconds: number;
}

/** Where the counters live. One store serves every plan and both windows. */
export interface RateLimitStore {
  readonly kind: "memory" | "redis" | "postgres";
  createLimiter(spec: LimiterSpec): RateLimiterAbstract;
  /** Releases what the store owns (a Redis connection it opened, a pool it created). */
  close(): Promise<void>;
}

/** Per-process counters. The default on the embedded (single-process) server. */
export function createMemoryStore(): RateLimitStore {
  return {
    kind: "memory",
    createLimiter: (spec) =>
      new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.durationSeconds }),
    close: async () => {},
  };
}

function insurance(spec: LimiterSpec): RateLimiterMemory {
  return new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.durationSeconds });
}

function requireWholeSeconds(spec: LimiterSpec, store: string): void {
  // The Redis script sets expiries in whole seconds; a 0-second window would never expire.
  if (!Number.isInteger(spec.durationSeconds) || spec.durationSeconds < 1) {
    throw new Error(`${store} rate-limit store needs whole-second windows ≥ 1, got ${spec.durationSeconds}`);
  }
}

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
 * in-memory insurance limiter at once, so an outage costs no latency, only precision.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const owned = options.client === undefined;
  let client: Redis;
  if (options.client !== undefined) client = options.client;
  else if (options.url !== undefined) client = new Redis(options.url, { maxRetriesPerRequest: 1 });
  else throw new Error("createRedisStore needs a client or a url");
  const onError = options.onError ?? (() => {});
  client.on("error", onError);
  const insured = options.insurance ?? true;
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
  return {
    kind: "redis",
    createLimiter(spec) {
      requireWholeSeconds(spec, "Redis");
      return new RateLimiterRedis({
        storeClient: client,
        keyPrefix: spec.keyPrefix,
        points: spec.points,
        duration: spec.durationSeconds,
        ...(insured ? { rejectIfRedisNotReady: true, insuranceLimiter: insurance(spec) } : {}),
      });
    },
    async close() {
      client.off("error", onError);
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
}

export interface PostgresStoreOptions {
  /** A node-postgres Pool on the shared database (not closed by the store), or */
  readonly pool?: Pool;
  /** a connection string (DATABASE_URL) for a small pool the store opens and closes. */
  readonly connectionString?: string;
  /** Counter table, created if absent (default "rate_limits"). */
  readonly tableName?: string;
  /** Fall back to per-process memory counting when the database is unreachable (default true). */
  readonly insurance?: boolean;
}

/**
 * Counters shared by every replica through the PostgreSQL database, for deployments that have
 * DATABASE_URL but no Redis. rate-limiter-flexible owns its table (key, points, expire) and
 * creates it with CREATE TABLE IF NOT EXISTS before the store is returned; expired rows are
 * swept by the library every five minutes.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<RateLimitStore> {
  let pool: Pool;
  const owned = options.pool === undefined;
  if (options.pool !== undefined) pool = options.pool;
  else if (options.connectionString !== undefined) {
    const pg = await import("pg");
    pool = new pg.default.Pool({ connectionString: options.connectionString, max: 4 });
  } else throw new Error("createPostgresStore needs a pool or a connectionString");
  const tableName = options.tableName ?? "rate_limits";
  const insured = options.insurance ?? true;
  const make = (spec: LimiterSpec, tableCreated: boolean, cb?: (err?: Error) => void) =>
    new RateLimiterPostgres(
      {
        storeClient: pool,
        storeType: "pool",
        tableName,
        tableCreated,
        keyPrefix: spec.keyPrefix,
        points: spec.points,
        duration: spec.durationSeconds,
        ...(insured ? { insuranceLimiter: insurance(spec) } : {}),
      },
      cb,
    );
  // Create the table once, through a throwaway limiter, so every real limiter can skip it.
  await new Promise<void>((resolve, reject) => {
    make({ keyPrefix: "init", points: 1, durationSeconds: 1 }, false, (err) => (err ? reject(err) : resolve()));
  });
  return {
    kind: "postgres",
    createLimiter: (spec) => make(spec, true),
    async close() {
      if (owned) await pool.end();
    },
  };
}

export interface StoreSelection {
  /** REDIS_URL: wins when set. */
  readonly redisUrl?: string | undefined;
  /** A pool on the shared PostgreSQL database (DATABASE_URL), used when there is no Redis. */
  readonly pgPool?: Pool | undefined;
  /** DATABASE_URL, when no pool is at hand. */
  readonly databaseUrl?: string | undefined;
  /** Store connection errors (Redis reconnects by itself), e.g. to log them. */
  readonly onError?: ((err: Error) => void) | undefined;
}

/** Redis when REDIS_URL is given, else Postgres when the server runs on PostgreSQL, else memory. */
export async function selectRateLimitStore(sel: StoreSelection): Promise<RateLimitStore> {
  if (sel.redisUrl) return createRedisStore({ url: sel.redisUrl, ...(sel.onError ? { onError: sel.onError } : {}) });
  if (sel.pgPool) return createPostgresStore({ pool: sel.pgPool });
  if (sel.databaseUrl) return createPostgresStore({ connectionString: sel.databaseUrl });
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

interface PlanLimiter {
  readonly union: RateLimiterUnion;
  readonly long: RateLimiterAbstract;
  readonly short: RateLimiterAbstract;
  readonly limits: PlanLimits;
}

/** Below this many ms left in a window a refund is skipped: the window is about to reset anyway,
 *  and a refund landing after the reset would seed the next window with a negative count. */
const REFUND_GUARD_MS = 100;

export function createKeyRateLimiter(options: RateLimiterOptions = {}): KeyRateLimiter {
  const store = options.store ?? createMemoryStore();
  const plans = options.plans ?? PLAN_LIMITS;
  const windows = options.windows ?? DEFAULT_WINDOWS;
  const prefix = options.keyPrefix ?? "pbs:rl";
  const now = options.now ?? Date.now;
  if (!(windows.longSeconds > windows.shortSeconds && windows.shortSeconds > 0)) {
    throw new Error("rate-limit windows: need longSeconds > shortSeconds > 0");
  }
  // The window length is part of the prefix: counters of differently configured limiters never mix,
  // and the union needs distinct prefixes to tell its two results apart.
  const longPrefix = `${prefix}:${windows.longSeconds}s`;
  const shortPrefix = `${prefix}:${windows.shortSeconds}s`;

  const byPlan = new Map<Plan, PlanLimiter>();
  for (const plan of Object.keys(plans) as Plan[]) {
    const limits = plans[plan];
    const long = store.createLimiter({ keyPrefix: longPrefix, points: limits.perMinute, durationSeconds: windows.longSeconds });
    const short = store.createLimiter({ keyPrefix: shortPrefix, points: limits.burst, durationSeconds: windows.shortSeconds });
    byPlan.set(plan, { union: new RateLimiterUnion(long, short), long, short, limits });
  }
  const planOf = (plan: string | undefined): Plan => (isPlan(plan) && byPlan.has(plan) ? plan : DEFAULT_PLAN);

  function policyHeader(plan?: string): string {
    const { limits } = byPlan.get(planOf(plan))!;
    return (
      `"default";q=${limits.perMinute};w=${Math.ceil(windows.longSeconds)}, ` +
      `"burst";q=${limits.burst};w=${Math.ceil(windows.shortSeconds)}`
    );
  }

  async function consume(keyId: string, plan?: string): Promise<RateLimitResult> {
    const p = planOf(plan);
    const pl = byPlan.get(p)!;
    const parts: Array<{ limiter: RateLimiterAbstract; policy: PolicyName; limit: number; windowSeconds: number }> = [
      { limiter: pl.long, policy: "default", limit: pl.limits.perMinute, windowSeconds: windows.longSeconds },
      { limiter: pl.short, policy: "burst", limit: pl.limits.burst, windowSeconds: windows.shortSeconds },
    ];
    const states = new Map<string, { res: RateLimiterRes; exceeded: boolean }>();
    let allowed: boolean;
    try {
      const ok = await pl.union.consume(keyId);
      allowed = true;
      for (const part of parts) states.set(part.limiter.keyPrefix, { res: ok[part.limiter.keyPrefix]!, exceeded: false });
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const refused = rejection as Record<string, unknown>;
      for (const value of Object.values(refused)) {
        // A store failure with no insurance: let the pipeline answer 500 rather than guess.
        if (!(value instanceof RateLimiterRes)) throw value instanceof Error ? value : new Error(String(value));
      }
      allowed = false;
      for (const part of parts) {
        const prefixKey = part.limiter.keyPrefix;
        const hit = refused[prefixKey];
        if (hit instanceof RateLimiterRes) {
          states.set(prefixKey, { res: hit, exceeded: true });
          continue;
        }
        // This window accepted: refund its point, and learn its state from the refund.
        const current = await part.limiter.get(keyId);
        let res: RateLimiterRes | null = current;
        if (current !== null && current.msBeforeNext > REFUND_GUARD_MS) res = await part.limiter.reward(keyId, 1);
        states.set(prefixKey, {
          res: res ?? new RateLimiterRes(part.limit, part.windowSeconds * 1000, 0, false),
          exceeded: false,
        });
      }
    }

    const t = now();
    const ws: WindowState[] = parts.map((part) => {
      const { res, exceeded } = states.get(part.limiter.keyPrefix)!;
      const ms = res.msBeforeNext >= 0 ? res.msBeforeNext : part.windowSeconds * 1000;
      return {
        policy: part.policy,
        limit: part.limit,
        windowSeconds: part.windowSeconds,
        remaining: exceeded ? 0 : Math.max(0, Math.min(part.limit, res.remainingPoints)),
        resetSeconds: Math.max(0, Math.ceil(ms / 1000)),
        resetAt: Math.ceil((t + ms) / 1000),
        exceeded,
      };
    });

    const binding = pickBinding(ws);
    const retryAfterSeconds = allowed
      ? null
      : Math.max(1, ...ws.filter((w) => w.exceeded).map((w) => w.resetSeconds));
    return {
      allowed,
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
 * - GitHub-style `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix epoch
 *   seconds), from the binding window;
 * - `Retry-After` (whole seconds ≥ 1) when refused.
 */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const policy = result.windows.map((w) => `"${w.policy}";q=${w.limit};w=${Math.ceil(w.windowSeconds)}`).join(", ");
  const current = result.windows.map((w) => `"${w.policy}";r=${w.remaining};t=${w.resetSeconds}`).join(", ");
  const headers: Record<string, string> = {
    "RateLimit-Policy": policy,
    RateLimit: current,
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.resetAt),
  };
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, result.retryAfterSeconds ?? 1));
  return headers;
}
