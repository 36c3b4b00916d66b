// Where an event stands in its partition's stream, and reading a partition's events after a position.
//
// An event's position is (txid, seq) (migration 0011): the transaction that recorded it, then its
// place within that transaction. Transactions commit out of order, so a reader may pass a position
// only once nothing can still appear before it: it takes an event only when its txid is below its
// snapshot's xmin (every transaction below xmin has ended, and every one that has not has a txid ≥
// xmin). The events it has not taken yet are "pending": committed or not, they are read again later.
import { sql } from "drizzle-orm";
import type { SchemaEvent } from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { toEvent } from "./events.ts";
import type { Partition } from "./partition.ts";

export interface Position {
  readonly txid: bigint;
  readonly seq: bigint;
}

export interface PositionedEvent {
  readonly event: SchemaEvent;
  readonly position: Position;
}

export function comparePositions(a: Position, b: Position): number {
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

/** Where a stream without Last-Event-ID starts: now. */
export interface StartingPoint {
  /** Every event recorded from here on lies after it (seq starts at 1). */
  readonly position: Position;
  /**
   * Whether the transaction had ended when the stream opened. Events after `position` can still be
   * older than the stream: those of transactions that ended between the oldest one then running and
   * the opening (xmin is cluster-wide, so any long transaction anywhere widens the gap). The stream
   * passes them without sending them.
   */
  readonly endedBefore: (txid: bigint) => boolean;
  /** Every transaction from here on began after the opening: `endedBefore` is false for all of them. */
  readonly xmax: bigint;
}

/** Now, as the database's snapshot has it: its xmin as the position, and which transactions above it had ended. */
export async function currentPosition(db: Database): Promise<StartingPoint> {
  // `xmin:xmax:xip,…` (the transactions running between xmin and xmax): one text value on both drivers.
  const { rows } = await db.execute<{ snapshot: string }>(sql`select pg_current_snapshot()::text as snapshot`);
  const [xmin, xmax, running] = rows[0]!.snapshot.split(":") as [string, string, string];
  const stillRunning = new Set(running ? running.split(",").map(BigInt) : []);
  const end = BigInt(xmax);
  return {
    position: { txid: BigInt(xmin), seq: 0n },
    endedBefore: (txid) => txid < end && !stillRunning.has(txid),
    xmax: end,
  };
}

/** The position of one of the partition's events, or undefined when it has no such event. */
export async function positionOf(db: Database, partition: Partition, eventId: string): Promise<Position | undefined> {
  const { rows } = await db.execute<{ txid: string; seq: string }>(sql`
    select txid::text as txid, seq::text as seq from events
    where id = ${eventId} and workspace_id = ${partition.workspaceId} and environment = ${partition.environment}`);
  const row = rows[0];
  return row ? { txid: BigInt(row.txid), seq: BigInt(row.seq) } : undefined;
}

export interface EventsAfter {
  /** The partition's events after the position that can be passed, in position order, at most `limit`. */
  readonly events: PositionedEvent[];
  /** Events after the last of them exist but cannot be passed yet: read again shortly. */
  readonly pending: boolean;
}

/**
 * One statement: the first `limit` events after `after` in position order (an index range scan),
 * each marked whether its transaction lies below the snapshot's xmin. Positions order by txid
 * first, so the passable ones come first; the first that is not ends the read.
 *
 * The position goes out as text (JavaScript has no xid8) under names of its own: a bare `txid` in
 * ORDER BY would name the text output column, not the table's, and sort "10" before "9" — the
 * reader would pass a position and then skip every event before it.
 */
export async function eventsAfter(
  db: Database,
  partition: Partition,
  after: Position,
  limit: number,
): Promise<EventsAfter> {
  const { rows } = await db.execute<EventRowWithPosition>(sql`
    select id, type, workspace_id, environment, data, txid::text as position_txid, seq::text as position_seq,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      txid < pg_snapshot_xmin(pg_current_snapshot()) as settled
    from events
    where workspace_id = ${partition.workspaceId} and environment = ${partition.environment}
      and (txid, seq) > (${after.txid.toString()}::xid8, ${after.seq.toString()}::bigint)
    order by events.txid, events.seq
    limit ${limit}`);
  const events: PositionedEvent[] = [];
  for (const row of rows) {
    if (!row.settled) return { events, pending: true };
    events.push({
      event: toStreamEvent(row),
      position: { txid: BigInt(row.position_txid), seq: BigInt(row.position_seq) },
    });
  }
  return { events, pending: false };
}

interface EventRowWithPosition extends Record<string, unknown> {
  id: string;
  type: string;
  workspace_id: string;
  environment: "live" | "test";
  data: unknown;
  created_at: string;
  position_txid: string;
  position_seq: string;
  settled: boolean;
}

/** The same object as GET /v1/events answers (from a raw row: jsonb parsed by the driver, the time as ISO text). */
function toStreamEvent(row: EventRowWithPosition): SchemaEvent {
  return toEvent({
    id: row.id,
    type: row.type,
    workspaceId: row.workspace_id,
    environment: row.environment,
    data: row.data,
    createdAt: new Date(row.created_at),
  });
}
