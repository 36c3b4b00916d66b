// What a rate-limit answer says: the windows (a minute, "default", and a second, "burst"), their
// figures for the headers, and the result of charging one request.
export { PLAN_LIMITS, type Plan, type PlanLimits } from "../../domain/plans.ts";
import { PLAN_LIMITS, type Plan } from "../../domain/plans.ts";

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
