// Events: what happened in a partition, recorded in the same transaction as the change itself, and
// queued for every enabled webhook endpoint subscribed to its type. The delivery worker sends them.
import { and, eq, sql } from "drizzle-orm";
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
  const [event] = await recordEvents(db, partition, [{ type, object }]);
  return event!;
}

/**
 * Records what happened in one statement, however many events: the events, and a delivery of each
 * to every enabled endpoint of the partition subscribed to its type (or to `*`). Endpoints are
 * looked up once for them all, by the database, in the same statement.
 */
export async function recordEvents(
  db: Database,
  partition: Partition,
  happened: ReadonlyArray<{ readonly type: SchemaEventType; readonly object: unknown }>,
): Promise<SchemaEvent[]> {
  const createdAt = new Date();
  const rows: EventRow[] = happened.map(({ type, object }) => ({ id: newId("evt"), ...partition, type, data: object, createdAt }));
  // A delivery's id is random like every id (96 bits of gen_random_uuid), made where its row is.
  // (drizzle puts the embedded INSERT in parentheses itself.)
  await db.execute(sql`
    with recorded as ${db.insert(events).values(rows).returning({ id: events.id, type: events.type, createdAt: events.createdAt })}
    insert into ${webhookDeliveries} (id, webhook_endpoint_id, event_id, workspace_id, environment, next_attempt_at)
    select 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), ${webhookEndpoints.id}, recorded.id,
      ${webhookEndpoints.workspaceId}, ${webhookEndpoints.environment}, recorded.created_at
    from recorded
    join ${webhookEndpoints}
      on ${and(inPartition(webhookEndpoints, partition), eq(webhookEndpoints.status, "enabled"))}
     and ${webhookEndpoints.enabledEvents} && array[recorded.type, '*']`);
  return rows.map(toEvent);
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

