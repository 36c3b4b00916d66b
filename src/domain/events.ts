// Events: what happened in a partition, recorded in the same transaction as the change itself, and
// queued for every enabled webhook endpoint subscribed to its type. The delivery worker sends them.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { SchemaEvent, SchemaEventType, SchemaScope } from "../../generated/schema.d.ts";
import type { Database, Queryable } from "../storage/index.ts";
import { placeholder, preparedSql } from "../storage/prepared.ts";
import { newId } from "../storage/ids.ts";
import { events, webhookDeliveries, webhookEndpoints } from "../storage/schema.ts";
import { NotFoundError } from "./errors.ts";
import { inPartition, iso, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";

type EventRow = typeof events.$inferSelect;

/** The scope that reads each event type's resource (the scope of its GET). */
export const EVENT_READ_SCOPES: Readonly<Record<SchemaEventType, SchemaScope>> = {
  "project.created": "projects:read",
  "project.updated": "projects:read",
  "project.deleted": "projects:read",
  "agent_run.queued": "projects:read",
  "agent_run.started": "projects:read",
  "agent_run.succeeded": "projects:read",
  "agent_run.failed": "projects:read",
  "agent_run.canceled": "projects:read",
  "agent_run.progress": "projects:read",
  "deployment.queued": "deployments:read",
  "deployment.ready": "deployments:read",
  "deployment.failed": "deployments:read",
  "file.uploaded": "files:read",
  "file.deleted": "files:read",
  "version.created": "projects:read",
  "webhook.test": "webhooks:read",
};
/** The contract's event types (the record above has every one: it fails to compile otherwise). */
export const EVENT_TYPES = Object.keys(EVENT_READ_SCOPES) as SchemaEventType[];

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

export async function recordEvent(
  db: Queryable,
  partition: Partition,
  type: SchemaEventType,
  object: unknown,
): Promise<SchemaEvent> {
  const [event] = await recordEvents(db, partition, [{ type, object }]);
  return event!;
}

/**
 * Records what happened in one statement, however many events: the events, and a delivery of each
 * to every enabled endpoint of the partition subscribed to its type (or to `*`, but for NAMED_ONLY). Endpoints are
 * looked up once for them all, by the database, in the same statement.
 */
export async function recordEvents(
  db: Queryable,
  partition: Partition,
  happened: ReadonlyArray<{ readonly type: SchemaEventType; readonly object: unknown }>,
): Promise<SchemaEvent[]> {
  const { rows, params } = eventRows(partition, happened);
  await recording(rows.length)(db).execute(params);
  return rows.map(toEvent);
}

/** The rows of recordEvents and the parameters of its statement (recordingSql's). */
export function eventRows(
  partition: Partition,
  happened: ReadonlyArray<{ readonly type: SchemaEventType; readonly object: unknown }>,
  createdAt = new Date(),
): { rows: EventRow[]; params: Record<string, unknown> } {
  const rows: EventRow[] = happened.map(({ type, object }) => ({
    id: newId("evt"),
    ...partition,
    type,
    data: object,
    createdAt,
  }));
  const params: Record<string, unknown> = { ...partition, createdAt };
  rows.forEach((row, i) =>
    Object.assign(params, { [`id${i}`]: row.id, [`type${i}`]: row.type, [`data${i}`]: row.data }),
  );
  return { rows, params };
}

/** The statement recording `count` events (one per count: a change records one or two). */
function recording(count: number) {
  let statement = recordingStatements.get(count);
  if (!statement) {
    statement = preparedSql(`record_events_${count}`, (db) => recordingSql(db, count));
    recordingStatements.set(count, statement);
  }
  return statement;
}

/**
 * The SQL recording `count` events and their deliveries; `before`, CTEs of the caller's own ending
 * in a comma, runs in the same statement (a create writes its rows and its events in one).
 */
export function recordingSql(db: Queryable, count: number, before?: SQL): SQL {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: placeholder(`id${i}`),
    workspaceId: placeholder("workspaceId"),
    environment: placeholder("environment"),
    type: placeholder(`type${i}`),
    data: placeholder(`data${i}`),
    createdAt: placeholder("createdAt"),
  }));
  // A delivery's id is made where its row is, in every id's format (new_id: migration 0015).
  // (drizzle puts the embedded INSERT in parentheses itself.)
  return sql`
    with ${before ?? sql``} recorded as ${db.insert(events).values(rows).returning({ id: events.id, type: events.type, createdAt: events.createdAt })}
    insert into ${webhookDeliveries} (id, webhook_endpoint_id, event_id, workspace_id, environment, next_attempt_at)
    select new_id('dlv'), ${webhookEndpoints.id}, recorded.id,
      ${webhookEndpoints.workspaceId}, ${webhookEndpoints.environment}, recorded.created_at
    from recorded
    join ${webhookEndpoints}
      on ${webhookEndpoints.workspaceId} = ${placeholder("workspaceId")}
     and ${webhookEndpoints.environment} = ${placeholder("environment")}
     and ${webhookEndpoints.status} = 'enabled'
     and (${webhookEndpoints.enabledEvents} && array[recorded.type]
       or (recorded.type not in (${sql.raw(NAMED_ONLY.map((type) => `'${type}'`).join(", "))}) and '*' = any(${webhookEndpoints.enabledEvents})))`;
}

/**
 * Event types `*` does not include: only endpoints that name them get them. `agent_run.progress` is
 * chatty (one per file a run writes, per tool call a model makes).
 */
export const NAMED_ONLY: readonly SchemaEventType[] = ["agent_run.progress"];
const recordingStatements = new Map<number, ReturnType<typeof preparedSql<Queryable, Record<string, unknown>>>>();

export async function listEvents(
  db: Database,
  partition: Partition,
  page: PageRequest,
  filters: { type?: SchemaEventType },
): Promise<Page<SchemaEvent>> {
  return listPage(
    db,
    events,
    and(inPartition(events, partition), filters.type ? eq(events.type, filters.type) : undefined),
    page,
    toEvent,
  );
}

export async function getEvent(db: Database, partition: Partition, id: string): Promise<SchemaEvent> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(inPartition(events, partition), eq(events.id, id)));
  if (!row) throw new NotFoundError(`No event ${id} in this workspace.`, "event_id");
  return toEvent(row);
}
