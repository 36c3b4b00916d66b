// Retention: audit rows, events and webhook delivery logs are kept AUDIT_RETENTION_DAYS (default 90)
// and then deleted by the `retention` job (src/jobs/workers.ts), so neither years of traffic nor a
// flood of refused requests grows them without bound.
//
// What goes, oldest first:
// - webhook deliveries created before the cutoff, unless still pending (a delivery being retried
//   keeps its whole log until it ends); their attempts go with them (ON DELETE CASCADE);
// - events created before the cutoff that no delivery refers to any more (a redelivery of an old
//   event is a new delivery, and its event stays until it has gone too);
// - audit rows (API requests and administrative actions) that occurred before the cutoff.
//
// Each batch is one short statement of its own (migration 0007's indexes find the rows), so it locks
// only the rows it deletes, and only until it commits: requests writing to these tables meanwhile
// never wait long. A run stops at its deadline; the next run carries on where it stopped.
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../storage/index.ts";

export const RETENTION_BATCH_ROWS = 1000;

export interface RetentionOptions {
  /** Everything older than this goes. */
  readonly before: Date;
  /** Rows per statement (default RETENTION_BATCH_ROWS). */
  readonly batchRows?: number;
  /** Epoch ms after which no new batch starts. */
  readonly deadline?: number;
}

export interface RetentionResult {
  readonly deliveries: number;
  readonly events: number;
  readonly auditRows: number;
  /** False when the deadline stopped the run with rows left to delete. */
  readonly complete: boolean;
}

export async function deleteExpiredRecords(db: Database, options: RetentionOptions): Promise<RetentionResult> {
  const limit = options.batchRows ?? RETENTION_BATCH_ROWS;
  const before = options.before;
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  let complete = true;

  /** Runs `batch` until it deletes fewer than `limit` rows or the deadline passes; answers the count. */
  async function drain(batch: SQL): Promise<number> {
    let total = 0;
    for (;;) {
      if (Date.now() > deadline) {
        complete = false;
        return total;
      }
      const { rows } = await db.execute(batch);
      total += rows.length;
      if (rows.length < limit) return total;
    }
  }

  const deliveries = await drain(sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < ${before} and status <> 'pending' limit ${limit}
    ) returning 1`);
  const events = complete
    ? await drain(sql`
        delete from events where id in (
          select id from events
          where created_at < ${before} and not exists (select 1 from webhook_deliveries where event_id = events.id)
          limit ${limit}
        ) returning 1`)
    : 0;
  const auditRows = complete
    ? await drain(sql`
        delete from audit_log where id in (select id from audit_log where occurred_at < ${before} limit ${limit}) returning 1`)
    : 0;
  return { deliveries, events, auditRows, complete };
}
