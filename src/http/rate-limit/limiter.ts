// The per-key limiter: each API key may make its plan's requests per minute ("default") and per
// second ("burst"), counted in a store shared by the replicas (leased, leases.ts) or in the process.
//
// Decisions:
// - All or nothing: a request is counted in both windows only when both have room. A refused
//   request uses up no quota, so a client hammering at 100 req/s still gets its 60 answers a minute,
//   not 10 (charging the minute for refused requests would spend it in the first second).
// - Counters are keyed by the API key id only (not by plan): a plan change keeps the counts already
//   spent in the window. The window length is part of the counter's name, so limiters configured
//   with other windows never share counts.
// - `result.limit/remaining/resetSeconds` are the "binding" window's: the one with the fewest
//   requests left (ties: the later reset); when refused, the full window with the latest reset.
import { direct, leased } from "./leases.ts";
import { createMemoryStore } from "./memory-store.ts";
import {
  DEFAULT_PLAN,
  DEFAULT_WINDOWS,
  isPlan,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
  type RateLimitResult,
  type RateLimitWindows,
  type WindowState,
} from "./policy.ts";
import type { RateLimitStore, WindowSpec } from "./store.ts";

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
  const store = options.store ?? createMemoryStore();
  // The process's own counters need no lease; a shared store's are leased (leases.ts).
  const counter = store.kind === "memory" ? direct(store) : leased(store);
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
      const spec: WindowSpec[] = parts.map((part) => ({
        name: `${prefix}:${part.windowSeconds}s`,
        limit: part.limit,
        durationMs: part.windowSeconds * 1000,
      }));
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
    const counted = await counter.count(keyId, spec);
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
    const retryAfterSeconds = counted.allowed
      ? null
      : Math.max(1, ...ws.filter((w) => w.exceeded).map((w) => w.resetSeconds));
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

  return { store, windows, consume, policyHeader, close: () => counter.close() };
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
