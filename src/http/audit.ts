// The audit log: one row per API request, failed authentication included, written after the
// response has gone so it never delays the caller. `flush` waits for the writes still in flight
// (on shutdown, and in tests).
import type { Logger } from "pino";
import type { Database } from "../storage/index.ts";
import { auditLog } from "../storage/schema.ts";

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
}

export interface AuditWriter {
  record(entry: AuditEntry): void;
  flush(): Promise<void>;
}

export function createAuditWriter(db: Database, log: Logger): AuditWriter {
  const pending = new Set<Promise<unknown>>();
  return {
    record(entry) {
      const write = db
        .insert(auditLog)
        .values(entry)
        .catch((error: unknown) => log.error({ err: error, request_id: entry.requestId }, "audit write failed"))
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    async flush() {
      await Promise.all(pending);
    },
  };
}
