// What each billing plan includes: the one table that usage, the rate limiter and the contract's
// documentation agree on. Plans above Pro raise the request rate, as the service description says.
import type { SchemaPlan } from "../../generated/schema.d.ts";

export type Plan = SchemaPlan;

export interface PlanLimits {
  /** Requests allowed per long window (a minute unless overridden). */
  readonly perMinute: number;
  /** Requests allowed per short window (a second unless overridden). */
  readonly burst: number;
}

export const PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = Object.freeze({
  free: Object.freeze({ perMinute: 60, burst: 10 }),
  pro: Object.freeze({ perMinute: 60, burst: 10 }),
  team: Object.freeze({ perMinute: 300, burst: 30 }),
  enterprise: Object.freeze({ perMinute: 1000, burst: 100 }),
});

/** Credits each plan includes per billing period. */
export const PLAN_CREDITS: Readonly<Record<Plan, number>> = Object.freeze({
  free: 100,
  pro: 5_000,
  team: 25_000,
  enterprise: 100_000,
});
