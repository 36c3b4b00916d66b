// The audit log as the settings console and `pbs` read it, and the administrative actions they
// record (API requests are recorded by the HTTP pipeline: src/http/audit.ts).
import { and, desc, eq, gte, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { auditLog, type AuditEntry } from "../storage/schema.ts";

export type { AuditEntry };

/** What an administrator did. Stable names: exported logs and alerts match on them. */
export type AdminAction =
  | "api_key.created"
  | "api_key.revoked"
  | "webhook_endpoint.created"
  | "webhook_endpoint.updated"
  | "webhook_endpoint.deleted"
  | "webhook_endpoint.secret_rotated"
  | "webhook_endpoint.tested"
  | "webhook_delivery.redelivered"
  | "member.added"
  | "member.role_changed"
  | "member.removed"
  | "oauth_app.authorized"
  | "oauth_app.revoked"
  | "oauth_client.created"
  | "console.refused"
  | "oauth_authorize.refused"
  | "pages.rate_limited";

export interface AdminActionEntry {
  readonly workspaceId: string | null;
  readonly action: AdminAction;
  /** Who: a user id (`usr_…`), or `pbs` for the operator CLI. */
  readonly actor: string;
  /** On what: the id of the key, endpoint, member or application. */
  readonly target: string | null;
  /** The console request that carried the action out; absent for `pbs`. */
  readonly request?: {
    readonly requestId: string;
    readonly method: string;
    readonly path: string;
    readonly status: number;
    readonly ip: string | null;
    readonly userAgent: string | null;
  };
  /** How many requests the row stands for (default 1): the refusals of one address in one window. */
  readonly count?: number;
}

export async function recordAdminAction(db: Queryable, entry: AdminActionEntry): Promise<void> {
  await db.insert(auditLog).values({
    workspaceId: entry.workspaceId,
    action: entry.action,
    actor: entry.actor,
    // The target may echo what a caller sent (an unknown client_id): text can hold neither a NUL
    // nor a lone surrogate, and the row must not be lost for it.
    target: entry.target === null ? null : storableText(entry.target),
    ...entry.request,
    ...(entry.count !== undefined ? { count: entry.count } : {}),
  });
}

/** `text` with each NUL and lone UTF-16 surrogate replaced by U+FFFD, which PostgreSQL can store. */
function storableText(text: string): string {
  return text.toWellFormed().replaceAll("\0", "\ufffd");
}

export interface AuditFilter {
  /** null: the rows of no workspace (refused before a key, session or application was identified). */
  readonly workspaceId: string | null;
  /** An API key id (`key_…`) or an OAuth client id (`pbc_…`): the requests it made. */
  readonly credential?: string;
  /** An exact status (404) or a class (`4xx`). */
  readonly status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  /** Only administrative actions (`actions`) or only API requests (`requests`). */
  readonly kind?: "actions" | "requests";
  readonly from?: Date;
  /** Exclusive. */
  readonly to?: Date;
}

/** Where a page ends: the last row's time and id (rows are newest first). */
export interface AuditPosition {
  readonly occurredAt: Date;
  readonly id: number;
}

function conditions(filter: AuditFilter): SQL[] {
  const where: SQL[] = [
    filter.workspaceId === null ? isNull(auditLog.workspaceId) : eq(auditLog.workspaceId, filter.workspaceId),
  ];
  if (filter.credential)
    where.push(or(eq(auditLog.keyId, filter.credential), eq(auditLog.clientId, filter.credential))!);
  if (typeof filter.status === "number") where.push(eq(auditLog.status, filter.status));
  else if (filter.status) {
    const base = Number(filter.status[0]) * 100;
    where.push(and(gte(auditLog.status, base), lt(auditLog.status, base + 100))!);
  }
  if (filter.kind === "actions") where.push(isNotNull(auditLog.action));
  if (filter.kind === "requests") where.push(isNull(auditLog.action));
  if (filter.from) where.push(gte(auditLog.occurredAt, filter.from));
  if (filter.to) where.push(lt(auditLog.occurredAt, filter.to));
  return where;
}

/** One page of the workspace's audit log, newest first, and where the next page starts (undefined on the last). */
export async function listAuditLog(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; after?: AuditPosition },
): Promise<{ entries: AuditEntry[]; next: AuditPosition | undefined }> {
  const where = conditions(filter);
  if (page.after) {
    where.push(sql`(${auditLog.occurredAt}, ${auditLog.id}) < (${page.after.occurredAt}, ${page.after.id})`);
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(page.limit + 1);
  const entries = rows.slice(0, page.limit);
  const last = entries.at(-1);
  return { entries, next: rows.length > page.limit && last ? { occurredAt: last.occurredAt, id: last.id } : undefined };
}

/** Every row the filter selects, newest first, in batches: for CSV export without holding the log in memory. */
export async function* eachAuditEntry(db: Queryable, filter: AuditFilter, batch = 1000): AsyncGenerator<AuditEntry> {
  let after: AuditPosition | undefined;
  do {
    const page = await listAuditLog(db, filter, { limit: batch, ...(after ? { after } : {}) });
    yield* page.entries;
    after = page.next;
  } while (after);
}

const CSV_COLUMNS = [
  "occurred_at",
  "kind",
  "actor",
  "action",
  "target",
  "key_id",
  "client_id",
  "method",
  "path",
  "status",
  "ip",
  "user_agent",
  "request_id",
  "latency_ms",
  "count",
  "tool",
] as const;

export const AUDIT_CSV_HEADER = `${CSV_COLUMNS.join(",")}\r\n`;

/** One RFC 4180 line. Cells that a spreadsheet would run as a formula are prefixed with `'` (CSV injection). */
export function auditCsvLine(entry: AuditEntry): string {
  const cells = [
    entry.occurredAt.toISOString(),
    entry.action ? "action" : "request",
    entry.actor,
    entry.action,
    entry.target,
    entry.keyId,
    entry.clientId,
    entry.method,
    entry.path,
    entry.status,
    entry.ip,
    entry.userAgent,
    entry.requestId,
    entry.latencyMs,
    entry.count,
    entry.tool,
  ];
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
