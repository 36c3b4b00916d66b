// Webhook endpoints and their deliveries. An endpoint receives the partition's events of the types
// it enables (events.ts queues them); its signing secret is shown once, at creation. A delivery is
// one event sent to one endpoint: pending → succeeded | failed. Sending and signing the deliveries is
// the delivery worker's job (webhook-sending.ts, webhook-signature.ts); here they are only queued
// and listed. Endpoints and their delivery log are the one resource of spec/webhooks.tsp, whose
// handlers (src/handlers/webhooks.ts) and console pages use both.
import { createHash } from "node:crypto";
import { and, desc, eq, getTableColumns, inArray } from "drizzle-orm";
import type {
  SchemaCreateWebhookEndpointRequest,
  SchemaEventType,
  SchemaUpdateWebhookEndpointRequest,
  SchemaWebhookDelivery,
  SchemaWebhookDeliveryStatus,
  SchemaWebhookEndpoint,
  SchemaWebhookEndpointWithSecret,
  SchemaWebhookTestObject,
} from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { events, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "../storage/schema.ts";
import { InvalidInputError, NotFoundError } from "./errors.ts";
import { contractFields } from "./contract-fields.ts";
import {
  inPartition,
  iso,
  isoOrNull,
  keyset,
  listPage,
  toPage,
  type Page,
  type PageRequest,
  type Partition,
} from "./partition.ts";
import { newWebhookSecret } from "./webhook-signature.ts";
import type { WebhookTargets } from "./webhook-targets.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EnabledEvents = SchemaWebhookEndpoint["enabled_events"];

export function toWebhookEndpoint(row: EndpointRow): SchemaWebhookEndpoint {
  return {
    ...contractFields(row, [
      "id",
      "url",
      "description",
      "enabledEvents",
      "status",
      "disabledReason",
      "createdAt",
      "updatedAt",
    ]),
    enabled_events: row.enabledEvents as EnabledEvents,
  };
}

export function toWebhookDelivery(row: DeliveryRow & { eventType: string }): SchemaWebhookDelivery {
  return {
    ...contractFields(row, [
      "id",
      "webhookEndpointId",
      "eventId",
      "eventType",
      "status",
      "attempts",
      "responseStatus",
      "lastAttemptAt",
      "nextAttemptAt",
      "createdAt",
    ]),
    event_type: row.eventType as SchemaEventType,
    // A pending delivery is due at next_attempt_at; a finished one has no attempt planned.
    next_attempt_at: row.status === "pending" ? isoOrNull(row.nextAttemptAt) : null,
  };
}

/** The event types, each once, in the order first given. */
function distinctEvents(list: EnabledEvents): EnabledEvents {
  if (list.length === 0)
    throw new InvalidInputError("Enable at least one event type, or `*` for all.", "enabled_events");
  return [...new Set(list)];
}

export async function createWebhookEndpoint(
  db: Database,
  targets: WebhookTargets,
  partition: Partition,
  input: SchemaCreateWebhookEndpointRequest,
  commit: Commit<SchemaWebhookEndpointWithSecret> = inTransaction(db),
): Promise<SchemaWebhookEndpointWithSecret> {
  const url = await targets.check(input.url);
  const now = new Date();
  // One statement, in `commit`'s transaction all the same: the caller's may hold more.
  return commit(async (tx) => {
    const row = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId("we"),
        ...partition,
        url,
        description: input.description ?? null,
        enabledEvents: distinctEvents(input.enabled_events),
        status: "enabled",
        secret: newWebhookSecret(),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .then(([first]) => first!);
    return { ...toWebhookEndpoint(row), secret: row.secret };
  });
}

/**
 * The endpoint's signing secret whose SHA-256 is `sha256`, while it still signs: the current one, or
 * the previous one within its grace period. Undefined once it was rotated out (or the endpoint is
 * gone): stored answers keep only this digest, and a replay must not hand out a secret that no
 * longer works, nor a newer one.
 */
export async function signingSecretByDigest(
  db: Queryable,
  partition: Partition,
  endpointId: string,
  sha256: string,
  now = new Date(),
) {
  const [row] = await db
    .select({
      secret: webhookEndpoints.secret,
      previous: webhookEndpoints.previousSecret,
      previousUntil: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, endpointId)));
  if (!row) return undefined;
  if (secretDigest(row.secret) === sha256) return row.secret;
  if (row.previous && row.previousUntil && row.previousUntil > now && secretDigest(row.previous) === sha256)
    return row.previous;
  return undefined;
}

export const secretDigest = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** The endpoint row, or NotFoundError: another partition's endpoint does not exist for this caller. */
async function findEndpoint(
  db: Queryable,
  partition: Partition,
  id: string,
  { lock = false } = {},
): Promise<EndpointRow> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError(`No webhook endpoint ${id} in this workspace.`, "webhook_endpoint_id");
  return row;
}

export async function getWebhookEndpoint(
  db: Database,
  partition: Partition,
  id: string,
): Promise<SchemaWebhookEndpoint> {
  return toWebhookEndpoint(await findEndpoint(db, partition, id));
}

export async function listWebhookEndpoints(
  db: Database,
  partition: Partition,
  page: PageRequest,
): Promise<Page<SchemaWebhookEndpoint>> {
  return listPage(db, webhookEndpoints, inPartition(webhookEndpoints, partition), page, toWebhookEndpoint);
}

/** Changes the fields sent; `description: null` clears it. */
export async function updateWebhookEndpoint(
  db: Database,
  targets: WebhookTargets,
  partition: Partition,
  id: string,
  changes: SchemaUpdateWebhookEndpointRequest,
): Promise<SchemaWebhookEndpoint> {
  const url = changes.url !== undefined ? await targets.check(changes.url) : undefined;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.enabled_events !== undefined ? { enabledEvents: distinctEvents(changes.enabled_events) } : {}),
      ...(changes.status !== undefined ? { status: changes.status, disabledReason: null } : {}),
      // Enabled again: its failures so far no longer count towards disabling it.
      ...(changes.status === "enabled" ? { failingSince: null } : {}),
      updatedAt: new Date(),
    })
    .where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw new NotFoundError(`No webhook endpoint ${id} in this workspace.`, "webhook_endpoint_id");
  return toWebhookEndpoint(row);
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60_000;

/** Gives the endpoint a new secret; the previous one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(
  db: Database,
  partition: Partition,
  id: string,
  commit: Commit<SchemaWebhookEndpointWithSecret> = inTransaction(db),
  now = new Date(),
): Promise<SchemaWebhookEndpointWithSecret> {
  return commit(async (tx) => {
    const endpoint = await findEndpoint(tx, partition, id, { lock: true });
    const row = await tx
      .update(webhookEndpoints)
      .set({
        secret: newWebhookSecret(),
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning()
      .then(([first]) => first!);
    return { ...toWebhookEndpoint(row), secret: row.secret };
  });
}

/** Deletes the endpoint; its deliveries, pending ones included, go with it (ON DELETE CASCADE). */
export async function deleteWebhookEndpoint(db: Database, partition: Partition, id: string): Promise<void> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (!row) throw new NotFoundError(`No webhook endpoint ${id} in this workspace.`, "webhook_endpoint_id");
}

/** Queues one pending delivery of the event to the endpoint, due at once. */
async function queueDelivery(
  tx: Queryable,
  partition: Partition,
  endpointId: string,
  event: { id: string; type: string },
) {
  const now = new Date();
  const row = await tx
    .insert(webhookDeliveries)
    .values({
      id: newId("dlv"),
      webhookEndpointId: endpointId,
      eventId: event.id,
      ...partition,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .then(([first]) => first!);
  return toWebhookDelivery({ ...row, eventType: event.type });
}

export const TEST_EVENT_MESSAGE =
  "A test event sent from the API. Receiving it means the endpoint is reachable and verifies signatures.";

/**
 * Records a `webhook.test` event and queues it to this endpoint only, whatever its enabled events
 * and status (unlike recordEvent, which fans out to every subscribed enabled endpoint).
 */
export async function sendTestEvent(
  db: Database,
  partition: Partition,
  endpointId: string,
  commit: Commit<SchemaWebhookDelivery> = inTransaction(db),
): Promise<SchemaWebhookDelivery> {
  return commit(async (tx) => {
    const endpoint = await findEndpoint(tx, partition, endpointId);
    const object: SchemaWebhookTestObject = { message: TEST_EVENT_MESSAGE, webhook_endpoint_id: endpoint.id };
    const event = await tx
      .insert(events)
      .values({ id: newId("evt"), ...partition, type: "webhook.test", data: object })
      .returning({ id: events.id, type: events.type })
      .then(([first]) => first!);
    return queueDelivery(tx, partition, endpoint.id, event);
  });
}

export interface DeliveryFilters {
  status?: SchemaWebhookDeliveryStatus;
}

/** The endpoint's deliveries, newest first, each with its event's type. */
export async function listWebhookDeliveries(
  db: Database,
  partition: Partition,
  endpointId: string,
  page: PageRequest,
  filters: DeliveryFilters,
): Promise<Page<SchemaWebhookDelivery>> {
  await findEndpoint(db, partition, endpointId);
  const { after, orderBy, limit } = keyset(webhookDeliveries, page);
  const rows = await db
    .select({ ...getTableColumns(webhookDeliveries), eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.webhookEndpointId, endpointId),
        inPartition(webhookDeliveries, partition),
        filters.status ? eq(webhookDeliveries.status, filters.status) : undefined,
        after,
      ),
    )
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toWebhookDelivery);
}

/** A delivery of the partition to this endpoint, with its event's type, or NotFoundError. */
async function findDelivery(db: Queryable, partition: Partition, endpointId: string, deliveryId: string) {
  const [row] = await db
    .select({ ...getTableColumns(webhookDeliveries), eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(
      and(
        inPartition(webhookDeliveries, partition),
        eq(webhookDeliveries.webhookEndpointId, endpointId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
  if (!row) throw new NotFoundError(`No delivery ${deliveryId} to webhook endpoint ${endpointId}.`, "delivery_id");
  return row;
}

/** The delivery with every attempt, newest first. */
export async function getWebhookDelivery(
  db: Database,
  partition: Partition,
  endpointId: string,
  deliveryId: string,
): Promise<SchemaWebhookDelivery> {
  const delivery = toWebhookDelivery(await findDelivery(db, partition, endpointId, deliveryId));
  const attempts = await db
    .select()
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId))
    .orderBy(desc(webhookDeliveryAttempts.attemptedAt), desc(webhookDeliveryAttempts.id))
    .limit(MAX_LOGGED_ATTEMPTS);
  return { ...delivery, attempt_log: attempts.map(toAttempt) };
}

/**
 * The deliveries (as listed: of one partition) each with every attempt, newest first: one query for
 * the whole page, not one per delivery (the console's delivery log). Unbounded in SQL because a
 * delivery makes at most RETRY_SCHEDULE_MS.length + 1 attempts; the contract's bound still holds.
 */
export async function withAttemptLogs(
  db: Queryable,
  deliveries: readonly SchemaWebhookDelivery[],
): Promise<SchemaWebhookDelivery[]> {
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookDeliveryAttempts)
    .where(
      inArray(
        webhookDeliveryAttempts.deliveryId,
        deliveries.map((delivery) => delivery.id),
      ),
    )
    .orderBy(desc(webhookDeliveryAttempts.attemptedAt), desc(webhookDeliveryAttempts.id));
  const logs = new Map<string, AttemptLog[]>(deliveries.map((delivery) => [delivery.id, []]));
  for (const attempt of attempts) {
    const log = logs.get(attempt.deliveryId)!;
    if (log.length < MAX_LOGGED_ATTEMPTS) log.push(toAttempt(attempt));
  }
  return deliveries.map((delivery) => ({ ...delivery, attempt_log: logs.get(delivery.id)! }));
}

type AttemptLog = NonNullable<SchemaWebhookDelivery["attempt_log"]>[number];

function toAttempt(attempt: typeof webhookDeliveryAttempts.$inferSelect): AttemptLog {
  return {
    attempted_at: iso(attempt.attemptedAt),
    duration_ms: attempt.durationMs,
    response_status: attempt.responseStatus,
    response_body: attempt.responseBody,
    error: attempt.error,
  };
}

/** The contract's bound on `attempt_log`; a delivery makes at most RETRY_SCHEDULE.length + 1 attempts. */
const MAX_LOGGED_ATTEMPTS = 100;

/** Sends the delivery's event again to the same endpoint: a new pending delivery, attempts 0. */
export async function redeliver(
  db: Database,
  partition: Partition,
  endpointId: string,
  deliveryId: string,
  commit: Commit<SchemaWebhookDelivery> = inTransaction(db),
): Promise<SchemaWebhookDelivery> {
  return commit(async (tx) => {
    const original = await findDelivery(tx, partition, endpointId, deliveryId);
    return queueDelivery(tx, partition, endpointId, { id: original.eventId, type: original.eventType });
  });
}
