// Webhook endpoints and their deliveries. An endpoint receives the partition's events of the types
// it enables (events.ts queues them); its signing secret is shown once, at creation. A delivery is
// one event sent to one endpoint: pending → succeeded | failed. Sending and signing the deliveries is
// the delivery worker's job (webhook-signature.ts); here they are only queued and listed.
import { and, eq, getTableColumns } from "drizzle-orm";
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
import type { Database, Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { events, webhookDeliveries, webhookEndpoints } from "../storage/schema.ts";
import { InvalidInputError, NotFoundError } from "./errors.ts";
import { inPartition, iso, isoOrNull, keyset, toPage, type Page, type PageRequest, type Partition } from "./partition.ts";
import { newWebhookSecret } from "./webhook-signature.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EnabledEvents = SchemaWebhookEndpoint["enabled_events"];

export function toWebhookEndpoint(row: EndpointRow): SchemaWebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: row.enabledEvents as EnabledEvents,
    status: row.status,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function toWebhookDelivery(row: DeliveryRow & { eventType: string }): SchemaWebhookDelivery {
  return {
    id: row.id,
    webhook_endpoint_id: row.webhookEndpointId,
    event_id: row.eventId,
    event_type: row.eventType as SchemaEventType,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    last_attempt_at: isoOrNull(row.lastAttemptAt),
    // A pending delivery is due at next_attempt_at; a finished one has no attempt planned.
    next_attempt_at: row.status === "pending" ? isoOrNull(row.nextAttemptAt) : null,
    created_at: iso(row.createdAt),
  };
}

/** The url, refused unless it is an absolute https URL (the contract's pattern, checked here too). */
function httpsUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError("The url must be an absolute https URL.", "url");
  }
  if (parsed.protocol !== "https:" || !url.startsWith("https://")) {
    throw new InvalidInputError("Webhook deliveries are only sent over https: the url must start with https://.", "url");
  }
  return url;
}

/** The event types, each once, in the order first given. */
function distinctEvents(list: EnabledEvents): EnabledEvents {
  if (list.length === 0) throw new InvalidInputError("Enable at least one event type, or `*` for all.", "enabled_events");
  return [...new Set(list)];
}

export async function createWebhookEndpoint(
  db: Database,
  partition: Partition,
  input: SchemaCreateWebhookEndpointRequest,
): Promise<SchemaWebhookEndpointWithSecret> {
  const now = new Date();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id: newId("we"),
      ...partition,
      url: httpsUrl(input.url),
      description: input.description ?? null,
      enabledEvents: distinctEvents(input.enabled_events),
      status: "enabled",
      secret: newWebhookSecret(),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { ...toWebhookEndpoint(row), secret: row.secret };
}

/** The endpoint row, or NotFoundError: another partition's endpoint does not exist for this caller. */
async function findEndpoint(db: Queryable, partition: Partition, id: string): Promise<EndpointRow> {
  const [row] = await db.select().from(webhookEndpoints).where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, id)));
  if (!row) throw new NotFoundError(`No webhook endpoint ${id} in this workspace.`, "webhook_endpoint_id");
  return row;
}

export async function getWebhookEndpoint(db: Database, partition: Partition, id: string): Promise<SchemaWebhookEndpoint> {
  return toWebhookEndpoint(await findEndpoint(db, partition, id));
}

export async function listWebhookEndpoints(db: Database, partition: Partition, page: PageRequest): Promise<Page<SchemaWebhookEndpoint>> {
  const { after, orderBy, limit } = keyset(webhookEndpoints, page);
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(inPartition(webhookEndpoints, partition), after))
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toWebhookEndpoint);
}

/** Changes the fields sent; `description: null` clears it. */
export async function updateWebhookEndpoint(
  db: Database,
  partition: Partition,
  id: string,
  changes: SchemaUpdateWebhookEndpointRequest,
): Promise<SchemaWebhookEndpoint> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(changes.url !== undefined ? { url: httpsUrl(changes.url) } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.enabled_events !== undefined ? { enabledEvents: distinctEvents(changes.enabled_events) } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      updatedAt: new Date(),
    })
    .where(and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw new NotFoundError(`No webhook endpoint ${id} in this workspace.`, "webhook_endpoint_id");
  return toWebhookEndpoint(row);
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
async function queueDelivery(tx: Queryable, partition: Partition, endpointId: string, event: { id: string; type: string }) {
  const now = new Date();
  const [row] = await tx
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
    .returning();
  return toWebhookDelivery({ ...row, eventType: event.type });
}

export const TEST_EVENT_MESSAGE = "A test event sent from the API. Receiving it means the endpoint is reachable and verifies signatures.";

/**
 * Records a `webhook.test` event and queues it to this endpoint only, whatever its enabled events
 * and status (unlike recordEvent, which fans out to every subscribed enabled endpoint).
 */
export async function sendTestEvent(db: Database, partition: Partition, endpointId: string): Promise<SchemaWebhookDelivery> {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, partition, endpointId);
    const object: SchemaWebhookTestObject = { message: TEST_EVENT_MESSAGE, webhook_endpoint_id: endpoint.id };
    const [event] = await tx
      .insert(events)
      .values({ id: newId("evt"), ...partition, type: "webhook.test", data: object })
      .returning({ id: events.id, type: events.type });
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
      and(inPartition(webhookDeliveries, partition), eq(webhookDeliveries.webhookEndpointId, endpointId), eq(webhookDeliveries.id, deliveryId)),
    );
  if (!row) throw new NotFoundError(`No delivery ${deliveryId} to webhook endpoint ${endpointId}.`, "delivery_id");
  return row;
}

export async function getWebhookDelivery(db: Database, partition: Partition, endpointId: string, deliveryId: string): Promise<SchemaWebhookDelivery> {
  return toWebhookDelivery(await findDelivery(db, partition, endpointId, deliveryId));
}

/** Sends the delivery's event again to the same endpoint: a new pending delivery, attempts 0. */
export async function redeliver(db: Database, partition: Partition, endpointId: string, deliveryId: string): Promise<SchemaWebhookDelivery> {
  return db.transaction(async (tx) => {
    const original = await findDelivery(tx, partition, endpointId, deliveryId);
    return queueDelivery(tx, partition, endpointId, { id: original.eventId, type: original.eventType });
  });
}
