// Which store counts: Redis when REDIS_URL is given, else PostgreSQL when the server runs on it,
// else the process's memory (the embedded default: one process).
import type { Pool } from "pg";
import { createMemoryStore } from "./memory-store.ts";
import { createPostgresStore } from "./postgres-store.ts";
import { createRedisStore } from "./redis-store.ts";
import type { RateLimitStore } from "./store.ts";

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

export async function selectRateLimitStore(sel: StoreSelection): Promise<RateLimitStore> {
  const onError = sel.onError ? { onError: sel.onError } : {};
  if (sel.redisUrl) return createRedisStore({ url: sel.redisUrl, ...onError });
  if (sel.pgPool) return createPostgresStore({ pool: sel.pgPool, ...onError });
  if (sel.databaseUrl) return createPostgresStore({ connectionString: sel.databaseUrl, ...onError });
  return createMemoryStore();
}
