// Per-API-key rate limiting: a quota per minute and a burst cap per second, two fixed windows
// counted together, in a store the replicas share. What each module does:
//   policy.ts     windows, plans and the result of charging a request
//   limiter.ts    the per-key limiter (createKeyRateLimiter): both windows, the binding one
//   leases.ts     requests taken from a shared store a batch at a time, and refusals remembered
//   store.ts      the store interface;  memory-store.ts, redis-store.ts, postgres-store.ts  the stores
//   insured.ts    a shared store that fails open to per-process counting while it cannot answer
//   select.ts     which store (REDIS_URL, DATABASE_URL, memory)
//   headers.ts    the RateLimit and X-RateLimit-* headers
// Framework-agnostic: `consume(keyId, plan)` returns a plain result and `rateLimitHeaders(result)`
// the response headers; the HTTP pipeline decides what to do with them (429 key_rate_limited).
export { rateLimitHeaders } from "./headers.ts";
export { leaseSize } from "./leases.ts";
export { createKeyRateLimiter, type KeyRateLimiter, type RateLimiterOptions } from "./limiter.ts";
export { createMemoryStore } from "./memory-store.ts";
export {
  DEFAULT_PLAN,
  DEFAULT_WINDOWS,
  isPlan,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
  type PolicyName,
  type RateLimitResult,
  type RateLimitWindows,
  type WindowState,
} from "./policy.ts";
export { createPostgresStore, type PostgresStoreOptions } from "./postgres-store.ts";
export { createRedisStore, type RedisStoreOptions } from "./redis-store.ts";
export { selectRateLimitStore, type StoreSelection } from "./select.ts";
export type { RateLimitStore, TakeResult, WindowCount, WindowSpec } from "./store.ts";
