// Sending webhook deliveries, for the delivery worker (src/jobs/webhook-delivery-worker.ts): claiming
// the due ones, recording each attempt, retrying on a schedule and disabling an endpoint that keeps
// failing. No partition: the worker acts for every workspace. (Endpoints and the delivery log as
// the API and the console see them: webhooks.ts.)
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { SchemaEvent, SchemaWebhookDeliveryStatus } from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { events, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "../storage/schema.ts";
import { toEvent } from "./events.ts";

/** After the first attempt, how long to wait before each retry: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/** A delivery claimed for one attempt: what to send, where, and with which secrets. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly url: string;
  readonly event: SchemaEvent;
  /** The secrets to sign with: the current one, and a rotated-out one still in its grace period. */
  readonly secrets: string[];
}

/**
 * Claims up to `limit` due deliveries for `claimant` until now + `leaseMs`, at most one per endpoint
 * (and none of an endpoint that has one claimed already), so a slow or dead endpoint holds one
 * worker at a time and never delays the others. Rows locked by another claimant are skipped. A
 * claimant that dies loses its claims when their lease ends; the lease outlives an attempt.
 */
export async function claimDueDeliveries(
  db: Database,
  claimant: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    // Endpoints with an attempt in flight: looked up once (NOT IN over a subquery is a hashed
    // subplan), not per candidate, which a nested-loop anti-join would do over a large backlog.
    const busy = sql`${webhookDeliveries.webhookEndpointId} in (select held.webhook_endpoint_id from ${webhookDeliveries} as held where held.status = 'pending' and held.claimed_until > ${now})`;
    const candidates = await tx
      .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.webhookEndpointId })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.webhookEndpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
          // A test event goes to its endpoint whatever the endpoint's status, as the contract says.
          or(eq(webhookEndpoints.status, "enabled"), eq(events.type, "webhook.test")),
          sql`not ${busy}`,
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit * 4)
      .for("update", { of: webhookDeliveries, skipLocked: true });
    const picked = new Map<string, string>();
    for (const candidate of candidates)
      if (!picked.has(candidate.endpointId) && picked.size < limit) picked.set(candidate.endpointId, candidate.id);
    if (picked.size === 0) return [];
    const ids = [...picked.values()];
    await tx
      .update(webhookDeliveries)
      .set({ claimedBy: claimant, claimedUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(webhookDeliveries.id, ids));
    const rows = await tx
      .select({ id: webhookDeliveries.id, endpoint: webhookEndpoints, event: events })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.webhookEndpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(inArray(webhookDeliveries.id, ids));
    return rows.map(({ id, endpoint, event }) => ({
      id,
      url: endpoint.url,
      event: toEvent(event),
      secrets:
        endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
          ? [endpoint.secret, endpoint.previousSecret]
          : [endpoint.secret],
    }));
  });
}

/**
 * Releases claims on pending deliveries: every claim, for a process that owns the database alone
 * (the embedded default) at start, when any claim left was made by a process that is gone; or the
 * claims of `claimant` (on `deliveryId` only, when given) that it gives up without an attempt.
 */
export async function releaseDeliveryClaims(db: Database, claimant?: string, deliveryId?: string): Promise<number> {
  const released = await db
    .update(webhookDeliveries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        claimant ? eq(webhookDeliveries.claimedBy, claimant) : sql`${webhookDeliveries.claimedBy} is not null`,
        deliveryId ? eq(webhookDeliveries.id, deliveryId) : undefined,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return released.length;
}

/** What one attempt gave, as the sender reports it. */
export interface AttemptOutcome {
  readonly attemptedAt: Date;
  readonly durationMs: number;
  readonly status?: number;
  readonly responseBody?: string;
  readonly error?: string;
}

/**
 * Records an attempt made under `claimant`'s claim and settles the delivery: a 2xx succeeds; `410
 * Gone` fails it and disables the endpoint; any other failure plans the next retry from `schedule`,
 * or fails the delivery once the schedule is spent. An endpoint failing for 3 days is disabled.
 * Nothing is recorded when the claim was lost meanwhile (another claimant owns the delivery now).
 */
export async function recordDeliveryAttempt(
  db: Database,
  deliveryId: string,
  claimant: string,
  outcome: AttemptOutcome,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
): Promise<SchemaWebhookDeliveryStatus | undefined> {
  return db.transaction(async (tx) => {
    const [delivery] = await tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.claimedBy, claimant),
          eq(webhookDeliveries.status, "pending"),
        ),
      )
      .for("update");
    if (!delivery) return undefined;
    const now = new Date();
    await tx.insert(webhookDeliveryAttempts).values({
      deliveryId,
      attemptedAt: outcome.attemptedAt,
      durationMs: outcome.durationMs,
      responseStatus: outcome.status ?? null,
      responseBody: outcome.responseBody?.slice(0, 1024) ?? null,
      error: outcome.error?.slice(0, 500) ?? null,
    });
    const attempts = delivery.attempts + 1;
    const succeeded = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300 && !outcome.error;
    const gone = outcome.status === 410;
    const retryIn = schedule[attempts - 1];
    const status: SchemaWebhookDeliveryStatus = succeeded
      ? "succeeded"
      : gone || retryIn === undefined
        ? "failed"
        : "pending";
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        attempts,
        lastAttemptAt: outcome.attemptedAt,
        responseStatus: outcome.status ?? null,
        lastError: outcome.error ?? null,
        nextAttemptAt: status === "pending" ? new Date(now.getTime() + retryIn!) : null,
        claimedBy: null,
        claimedUntil: null,
        updatedAt: now,
      })
      .where(eq(webhookDeliveries.id, deliveryId));

    const [endpoint] = await tx
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, delivery.webhookEndpointId))
      .for("update");
    if (!endpoint) return status;
    if (succeeded) {
      if (endpoint.failingSince)
        await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return status;
    }
    const failingSince = endpoint.failingSince ?? outcome.attemptedAt;
    const reason = gone
      ? "The endpoint answered 410 Gone."
      : now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
        ? "Every delivery to the endpoint failed for 3 days."
        : undefined;
    await tx
      .update(webhookEndpoints)
      .set({
        failingSince,
        ...(reason && endpoint.status === "enabled"
          ? { status: "disabled", disabledReason: reason, updatedAt: now }
          : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    return status;
  });
}
