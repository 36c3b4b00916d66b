// What each billing plan includes: the one table that usage, the rate limiter and the contract's
// documentation agree on. Plans above Pro raise the request rate, as the service description says.
import type { SchemaAgent, SchemaPlan } from "../../generated/schema.d.ts";

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

/**
 * What a run costs. The built-in agent is priced per run by agent value (the later agents do more
 * per run); a model-backed run by the tokens its model reports, rounded up to whole credits.
 */
export const BUILTIN_RUN_CREDITS: Readonly<Record<SchemaAgent, number>> = Object.freeze({
  "coding-agent-1": 1,
  "coding-agent-2": 2,
  "coding-agent-3": 3,
});
export const TOKENS_PER_CREDIT = 1000;

/** A plan's price per billing period, in cents of PLAN_CURRENCY: what its invoice is for. */
export const PLAN_PRICES: Readonly<Record<Plan, number>> = Object.freeze({
  free: 0,
  pro: 2_000,
  team: 10_000,
  enterprise: 50_000,
});
export const PLAN_CURRENCY = "usd";

/**
 * Agent runs a tenant (one environment of a workspace) may have in progress at once, and likewise
 * deployment builds; more wait, queued, for a slot (src/domain/fair-share.ts). The defaults of
 * PLAN_RUN_CONCURRENCY and PLAN_BUILD_CONCURRENCY.
 */
export const PLAN_CONCURRENCY: Readonly<Record<Plan, number>> = Object.freeze({
  free: 1,
  pro: 2,
  team: 4,
  enterprise: 8,
});
