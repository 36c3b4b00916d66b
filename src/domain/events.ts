// Events: what happened in a partition, recorded in the same transaction as the change itself, and
// queued for every enabled webhook endpoint subscribed to its type. The delivery worker sends them.
import { and, arrayOverlaps, eq } from "drizzle-orm";
import type { SchemaEvent, SchemaEventType } from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { events, webhookDeliveries, webhookEndpoints } from "../storage/schema.ts";
import { NotFoundError } from "./errors.ts";
import { inPartition, iso, keyset, toPage, type Page, type PageRequest, type Partition } from "./partition.ts";

type EventRow = typeof events.$inferSelect;

export function toEvent(row: EventRow): SchemaEvent {
  return {
    id: row.id,
    type: row.type,
    created_at: iso(row.createdAt),
    workspace_id: row.workspaceId,
    livemode: row.environment === "live",
    data: { object: row.data },
  } as SchemaEvent;
}

export async function recordEvent(db: Database, partition: Partition, type: SchemaEventType, object: unknown): Promise<SchemaEvent> {
  const [row] = await db
    .insert(events)
    .values({ id: newId("evt"), ...partition, type, data: object })
    .returning();
  const subscribed = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        inPartition(webhookEndpoints, partition),
        eq(webhookEndpoints.status, "enabled"),
        arrayOverlaps(webhookEndpoints.enabledEvents, [type, "*"]),
      ),
    );
  if (subscribed.length > 0) {
    await db.insert(webhookDeliveries).values(
      subscribed.map((endpoint) => ({
        id: newId("dlv"),
        webhookEndpointId: endpoint.id,
        eventId: row.id,
        ...partition,
        nextAttemptAt: row.createdAt,
      })),
    );
  }
  return toEvent(row);
}

export async function listEvents(db: Database, partition: Partition, page: PageRequest, filters: { type?: SchemaEventType }): Promise<Page<SchemaEvent>> {
  const { after, orderBy, limit } = keyset(events, page);
  const rows = await db
    .select()
    .from(events)
    .where(and(inPartition(events, partition), filters.type ? eq(events.type, filters.type) : undefined, after))
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toEvent);
}

export async function getEvent(db: Database, partition: Partition, id: string): Promise<SchemaEvent> {
  const [row] = await db.select().from(events).where(and(inPartition(events, partition), eq(events.id, id)));
  if (!row) throw new NotFoundError(`No event ${id} in this workspace.`, "event_id");
  return toEvent(row);
}

