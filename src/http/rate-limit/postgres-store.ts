// Counters shared by every replica through the PostgreSQL database, for deployments that have
// DATABASE_URL but no Redis: table `rate_limit_counters` (migration 0006) and function
// `rate_limit_take` (migration 0010), one prepared statement per take. Windows run on the
// database's clock (`clock_timestamp()`), so replicas agree.
import type { Pool } from "pg";
import { insured } from "./insured.ts";
import type { RateLimitStore } from "./store.ts";

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
  const keysOf = (key: string, windows: readonly { name: string }[]) =>
    windows.map((window) => `${window.name}:${key}`);
  const store: RateLimitStore = {
    kind: "postgres",
    async take(key, windows, requests) {
      const { rows } = await pool.query<{ granted: number; counts: number[]; reset_in_ms: number[] }>({
        name: "rate_limit_take",
        text: "select granted, counts, reset_in_ms from rate_limit_take($1::text[], $2::integer[], $3::integer[], $4::integer)",
        values: [
          keysOf(key, windows),
          windows.map((window) => window.limit),
          windows.map((window) => Math.ceil(window.durationMs)),
          requests,
        ],
      });
      const [{ granted, counts, reset_in_ms }] = rows as [(typeof rows)[number]];
      return { granted, windows: counts.map((count, i) => ({ count, resetInMs: reset_in_ms[i]! })) };
    },
    async giveBack(key, windows, requests) {
      await pool.query({
        name: "rate_limit_give_back",
        text: "update rate_limit_counters set count = greatest(0, count - $2) where key = any($1::text[]) and resets_at > clock_timestamp()",
        values: [keysOf(key, windows), requests],
      });
    },
    async close() {
      clearInterval(sweep);
      if (owned) await pool.end();
    },
  };
  return options.insurance === false ? store : insured(store, () => true, options.onError ?? (() => {}));
}
