// The audit log: one row per API request, failed authentication included, written after the
// response has gone so it never delays the caller.
//
// Rows wait in a bounded in-process queue and are written in batches (one INSERT of up to
// `batchSize` rows, a few milliseconds after the first of them arrived), so under load a request
// costs a fraction of a statement instead of one. The queue is bounded: when it holds `maxQueued`
// rows, `admit()` makes new requests wait for room (back-pressure) instead of growing memory.
// `flush()` writes everything queued (graceful stop, tests). A batch that fails is retried with
// backoff; only a batch that still fails after `MAX_ATTEMPTS` is given up, and logged with its
// request ids, so an outage long enough to lose rows says which.
import type { Logger } from "pino";
import type { Database } from "../storage/index.ts";
import { sql } from "drizzle-orm";

export interface AuditEntry {
  requestId: string;
  workspaceId: string | null;
  keyId: string | null;
  clientId: string | null;
  method: string;
  /** The contract's path template; null when no operation matched. */
  route: string | null;
  path: string;
  status: number;
  ip: string | null;
  userAgent: string | null;
  latencyMs: number;
  /** When the request was answered (default: when it is recorded). */
  occurredAt?: Date;
}

export interface AuditWriter {
  record(entry: AuditEntry): void;
  /** Undefined while the queue has room; otherwise resolves once it has. */
  admit(): Promise<void> | undefined;
  /** Resolves when every row recorded so far has been written (or given up). */
  flush(): Promise<void>;
}

export interface AuditWriterOptions {
  /** Rows per INSERT (default 500). */
  readonly batchSize?: number;
  /** Rows queued before requests wait (default 10,000). */
  readonly maxQueued?: number;
  /** How long the first row of a batch waits for company (default 5 ms). */
  readonly delayMs?: number;
  /** Where a batch goes (default: one INSERT into audit_log). */
  readonly write?: (rows: readonly AuditEntry[]) => Promise<void>;
}

const RETRY_DELAYS_MS = [100, 500, 2000, 5000];
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export function createAuditWriter(db: Database, log: Logger, options: AuditWriterOptions = {}): AuditWriter {
  const batchSize = options.batchSize ?? 500;
  const maxQueued = options.maxQueued ?? 10_000;
  const delayMs = options.delayMs ?? 5;
  const write = options.write ?? ((rows: readonly AuditEntry[]) => insertRows(db, rows));
  const queue: AuditEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let roomWaiters: Array<() => void> = [];

  function schedule(): void {
    if (timer || writing) return;
    timer = setTimeout(startWriting, delayMs);
  }

  function startWriting(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    writing ??= writeQueued().finally(() => {
      writing = undefined;
      if (queue.length > 0) schedule();
    });
    return writing;
  }

  async function writeQueued(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      await writeBatch(batch);
      if (queue.length < maxQueued) {
        const waiters = roomWaiters;
        roomWaiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  async function writeBatch(batch: AuditEntry[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write(batch);
        return;
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS) {
          log.error({ err: error, request_ids: batch.map((entry) => entry.requestId) }, "audit rows lost: writing them kept failing");
          return;
        }
        log.warn({ err: error, rows: batch.length, attempt }, "audit write failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt - 1]));
      }
    }
  }

  return {
    record(entry) {
      queue.push(entry.occurredAt ? entry : { ...entry, occurredAt: new Date() });
      if (queue.length >= batchSize) void startWriting();
      else schedule();
    },
    admit() {
      if (queue.length < maxQueued) return undefined;
      return new Promise<void>((resolve) => roomWaiters.push(resolve));
    },
    async flush() {
      while (queue.length > 0 || writing) await startWriting();
    },
  };
}

/** One INSERT for the whole batch, its columns passed as twelve arrays: the statement is the same
 *  text whatever the batch's size, and nothing is built per row. */
async function insertRows(db: Database, rows: readonly AuditEntry[]): Promise<void> {
  const column = <T>(pick: (row: AuditEntry) => T) => rows.map(pick);
  await db.execute(sql`
    insert into audit_log (occurred_at, workspace_id, key_id, client_id, method, route, path, status, ip, user_agent, request_id, latency_ms)
    select * from unnest(
      ${sql.param(column((row) => (row.occurredAt ?? new Date()).toISOString()))}::timestamptz[],
      ${sql.param(column((row) => row.workspaceId))}::text[],
      ${sql.param(column((row) => row.keyId))}::text[],
      ${sql.param(column((row) => row.clientId))}::text[],
      ${sql.param(column((row) => row.method))}::text[],
      ${sql.param(column((row) => row.route))}::text[],
      ${sql.param(column((row) => row.path))}::text[],
      ${sql.param(column((row) => row.status))}::int[],
      ${sql.param(column((row) => row.ip))}::text[],
      ${sql.param(column((row) => row.userAgent))}::text[],
      ${sql.param(column((row) => row.requestId))}::text[],
      ${sql.param(column((row) => row.latencyMs))}::int[]
    )`);
}
