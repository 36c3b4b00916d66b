// The audit log: one row per API request, failed authentication included, written after the
// response has gone so it never delays the caller.
//
// Rows wait in a bounded in-process queue and are written in batches (one INSERT of up to
// `batchSize` rows, a few milliseconds after the first of them arrived), so under load a request
// costs a fraction of a statement instead of one. The queue is bounded: when it holds `maxQueued`
// rows, `admit()` makes new requests wait for room (back-pressure) instead of growing memory.
// `flush()` writes everything queued (graceful stop, tests).
//
// Failures: while the database cannot be reached (storage/unavailable.ts) a batch is retried with
// backoff (up to 5 s apart) for as long as the outage lasts, so the rows of an outage are written
// when the database returns, not lost. If the queue fills meanwhile, `admit()` answers false: the
// pipeline refuses the request with 503 rather than serve it unrecorded or make it wait for the
// database's return. Any other failure (a bug, a row the database refuses) is retried
// `MAX_ATTEMPTS` times and then given up, logged with its request ids, so one bad batch cannot hold
// the queue forever. A stop gives the writer a deadline (`close`), after which what is still queued
// is logged as lost, by request id.
import type { Logger } from "pino";
import type { Database } from "../storage/index.ts";
import { sql } from "drizzle-orm";
import { placeholder, preparedSql } from "../storage/prepared.ts";
import { auditLog } from "../storage/schema.ts";
import { isStorageUnavailable } from "../storage/unavailable.ts";

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
  /** The MCP tool (an operationId) the request carried out; null for a request over HTTP. */
  tool?: string | null;
  /** When the request was answered (default: when it is recorded). */
  occurredAt?: Date;
}

export interface AuditWriter {
  record(entry: AuditEntry): void;
  /**
   * Undefined while the queue has room; otherwise resolves with true once it has, or with false
   * when the database cannot be reached and the queue is full (the request is not to be served).
   */
  admit(): Promise<boolean> | undefined;
  /** Resolves when every row recorded so far has been written (or given up). */
  flush(): Promise<void>;
  /** Flushes for up to `timeoutMs`, then gives up (and logs, by request id) what is left. */
  close(timeoutMs: number): Promise<void>;
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
  /** Waits before each retry of a failed batch, the last repeated (default 0.1, 0.5, 2, 5 s). */
  readonly retryDelaysMs?: readonly number[];
}

const RETRY_DELAYS_MS = [100, 500, 2000, 5000];
/** Attempts at a batch that fails for another reason than an unreachable database. */
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export function createAuditWriter(db: Database, log: Logger, options: AuditWriterOptions = {}): AuditWriter {
  const batchSize = options.batchSize ?? 500;
  const maxQueued = options.maxQueued ?? 10_000;
  const delayMs = options.delayMs ?? 5;
  const write = options.write ?? ((rows: readonly AuditEntry[]) => insertAuditRows(db, rows));
  const retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const queue: AuditEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let roomWaiters: Array<(admitted: boolean) => void> = [];
  /** The last write found the database unreachable. */
  let outage = false;
  /** Set by `close` at its deadline: failing batches are given up at once. */
  let abandoning = false;
  let wakeRetry: (() => void) | undefined;

  function wakeWaiters(admitted: boolean): void {
    const waiters = roomWaiters;
    roomWaiters = [];
    for (const wake of waiters) wake(admitted);
  }

  function schedule(): void {
    if (timer || writing) return;
    // Never rejects: writeBatch deals with every failure (and so for `void startWriting()` below).
    timer = setTimeout(() => void startWriting(), delayMs);
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
      if (queue.length < maxQueued) wakeWaiters(true);
    }
  }

  async function writeBatch(batch: AuditEntry[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write(batch);
        if (outage)
          log.info({ queued: queue.length }, "audit log writable again: writing the rows queued during the outage");
        outage = false;
        return;
      } catch (error) {
        const unavailable = isStorageUnavailable(error);
        if (abandoning || (!unavailable && attempt >= MAX_ATTEMPTS)) {
          log.error(
            { err: error, request_ids: batch.map((entry) => entry.requestId) },
            "audit rows lost: writing them kept failing",
          );
          return;
        }
        if (unavailable && !outage) {
          outage = true;
          log.warn(
            { err: error, queued: queue.length + batch.length },
            "audit log unavailable: keeping its rows until the database returns",
          );
        }
        // Requests waiting for room would wait for the database's return: refuse them now instead.
        if (outage && queue.length >= maxQueued) wakeWaiters(false);
        else if (!unavailable) log.warn({ err: error, rows: batch.length, attempt }, "audit write failed; retrying");
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryDelaysMs[Math.min(attempt, retryDelaysMs.length) - 1]);
          wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeRetry = undefined;
      }
    }
  }

  async function flush(): Promise<void> {
    while (queue.length > 0 || writing) await startWriting();
  }

  return {
    record(entry) {
      queue.push(entry.occurredAt ? entry : { ...entry, occurredAt: new Date() });
      if (queue.length >= batchSize) void startWriting();
      else schedule();
    },
    admit() {
      if (queue.length < maxQueued) return undefined;
      if (outage) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => roomWaiters.push(resolve));
    },
    flush,
    async close(timeoutMs) {
      const deadline = setTimeout(() => {
        abandoning = true;
        wakeRetry?.();
      }, timeoutMs);
      try {
        await flush();
      } finally {
        clearTimeout(deadline);
        wakeWaiters(false);
      }
    },
  };
}

/** What an API request's row fills, by the names AuditEntry and the schema share; the columns of an
 *  administrative action stay null. */
const REQUEST_COLUMNS = [
  "occurredAt",
  "workspaceId",
  "keyId",
  "clientId",
  "method",
  "route",
  "path",
  "status",
  "ip",
  "userAgent",
  "requestId",
  "latencyMs",
  "tool",
] as const;

/** One INSERT for the whole batch, each column passed as one array: the statement is the same text
 *  whatever the batch's size (prepared once per connection), and nothing is built per row. */
export async function insertAuditRows(db: Database, rows: readonly AuditEntry[]): Promise<void> {
  const values = (name: (typeof REQUEST_COLUMNS)[number]) =>
    name === "occurredAt"
      ? rows.map((row) => (row.occurredAt ?? new Date()).toISOString())
      : rows.map((row) => row[name] ?? null);
  await insertingRows(db).execute(Object.fromEntries(REQUEST_COLUMNS.map((name) => [name, values(name)])));
}

const insertingRows = preparedSql("audit_insert_rows", () => {
  const names = REQUEST_COLUMNS.map((name) => sql.identifier(auditLog[name].name));
  const arrays = REQUEST_COLUMNS.map((name) => sql`${placeholder(name)}::${sql.raw(auditLog[name].getSQLType())}[]`);
  return sql`insert into audit_log (${sql.join(names, sql`, `)}) select * from unnest(${sql.join(arrays, sql`, `)})`;
});
