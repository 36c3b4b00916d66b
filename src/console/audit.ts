// The audit log: API requests and administrative actions, newest first, filtered by credential,
// status, kind and time, paged with an opaque signed position, and exported as CSV.
import {
  AUDIT_CSV_HEADER,
  auditCsvLine,
  eachAuditEntry,
  listAuditLog,
  type AuditEntry,
  type AuditFilter,
  type AuditPosition,
} from "../domain/audit-log.ts";
import { InvalidInputError } from "../domain/errors.ts";
import { listApiKeys, type ApiKeyRecord } from "../domain/keys.ts";
import { findUser } from "../domain/members.ts";
import { listConnectedApps } from "../domain/connected-apps.ts";
import { html, type Html } from "../html/template.ts";
import { sendConsolePage, type WorkspaceContext } from "./context.ts";
import { CursorError } from "../http/cursor.ts";
import { DAMAGED_LINK, pageAfter, pageToken, type ConsoleList } from "./cursor.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { keyDisplay } from "./keys.ts";
import { describedBy, fieldError, message, none, sentence, table, time } from "./layout.ts";
import { pager } from "./pager.ts";

const ENTRIES_PER_PAGE = 50;
const FILTER_FIELDS = ["credential", "status", "kind", "from", "to"] as const;

/** A time typed in a datetime-local input (read as UTC), or an ISO 8601 time with `Z`. */
function parseTime(value: string, field: "from" | "to"): Date {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z)?$/.exec(value.trim());
  const at = match ? new Date(`${match[1]}Z`) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw new InvalidInputError(`enter the time as 2025-06-01T14:30 (UTC)`, field);
  return at;
}

/** The filter the query asks for; InvalidInputError naming the field that cannot be read. */
export function auditFilter(workspaceId: string, query: URLSearchParams): AuditFilter {
  const credential = query.get("credential")?.trim() ?? "";
  if (credential && !/^(key|pbc)_[A-Za-z0-9]{1,64}$/.test(credential))
    throw new InvalidInputError("choose a key or application from the list", "credential");
  const status = query.get("status")?.trim().toLowerCase() ?? "";
  if (status && !/^[1-5](\d\d|xx)$/.test(status))
    throw new InvalidInputError("enter a status such as 404, or a class such as 4xx", "status");
  const kind = query.get("kind") ?? "";
  if (kind && kind !== "requests" && kind !== "actions")
    throw new InvalidInputError("choose requests, actions or both", "kind");
  const from = query.get("from") ? parseTime(query.get("from")!, "from") : undefined;
  const to = query.get("to") ? parseTime(query.get("to")!, "to") : undefined;
  if (from && to && from >= to) throw new InvalidInputError("the end of the period must be after its start", "to");
  return {
    workspaceId,
    ...(credential ? { credential } : {}),
    ...(status ? { status: status.endsWith("xx") ? (status as AuditFilter["status"]) : Number(status) } : {}),
    ...(kind ? { kind } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  } as AuditFilter;
}

/** The filter fields of the query, to carry into the next-page and CSV links. */
function filterQuery(query: URLSearchParams, extra: Record<string, string> = {}): string {
  const kept = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const value = query.get(field);
    if (value) kept.set(field, value);
  }
  for (const [name, value] of Object.entries(extra)) kept.set(name, value);
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** The log's list, for its page links: bound to the filters too, so a link cannot carry a position into other filters. */
function auditList(ctx: WorkspaceContext): ConsoleList {
  const filters = Object.fromEntries(FILTER_FIELDS.map((name) => [name, ctx.url.searchParams.get(name) || undefined]));
  return { name: "audit", workspaceId: ctx.workspace.id, filters };
}

function positionOf(ctx: WorkspaceContext): AuditPosition | undefined {
  const position = pageAfter(ctx.deps.cursors, auditList(ctx), ctx.url.searchParams.get("after"));
  if (!position) return undefined;
  // Audit rows are numbered, not named: the id is a positive integer or the link was made up.
  const id = /^[1-9]\d{0,15}$/.test(position.id) ? Number(position.id) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new CursorError("malformed", DAMAGED_LINK);
  return { occurredAt: new Date(position.created_at), id };
}

interface Names {
  readonly keys: Map<string, ApiKeyRecord>;
  readonly apps: Map<string, string>;
  readonly people: Map<string, string>;
}

async function namesFor(
  ctx: WorkspaceContext,
  entries: readonly AuditEntry[],
): Promise<Names & { appList: { clientId: string; clientName: string }[] }> {
  const [keys, apps] = await Promise.all([
    listApiKeys(ctx.deps.db, ctx.workspace.id),
    listConnectedApps(ctx.deps.db, ctx.workspace.id),
  ]);
  const actors = [
    ...new Set(
      entries.map((entry) => entry.actor).filter((actor): actor is string => actor?.startsWith("usr_") ?? false),
    ),
  ];
  const people = await Promise.all(
    actors.map(async (id) => [id, (await findUser(ctx.deps.db, id))?.email ?? id] as const),
  );
  return {
    keys: new Map(keys.map((key) => [key.id, key])),
    apps: new Map(apps.map((app) => [app.clientId, app.clientName])),
    people: new Map(people),
    appList: apps,
  };
}

function who(entry: AuditEntry, names: Names): Html {
  if (entry.action) {
    if (!entry.actor) return none();
    const email = names.people.get(entry.actor);
    return email ? html`${email}` : html`<code>${entry.actor}</code>`;
  }
  if (entry.keyId) {
    const key = names.keys.get(entry.keyId);
    return key
      ? html`Key ${key.name}<br><code class="meta nowrap">${keyDisplay(key)}</code>`
      : html`Key <code>${entry.keyId}</code>`;
  }
  if (entry.clientId) return html`App ${names.apps.get(entry.clientId) ?? entry.clientId}`;
  return html`<span class="meta">No valid credential</span>`;
}

function what(entry: AuditEntry): Html {
  if (entry.action)
    return html`<code>${entry.action}</code>${entry.target ? html` <code class="meta">${entry.target}</code>` : ""}`;
  const request = html`<code>${entry.method ?? ""} ${entry.path ?? ""}</code>`;
  return entry.tool ? html`${request}<br><span class="meta">via MCP: <code>${entry.tool}</code></span>` : request;
}

async function auditPage(ctx: WorkspaceContext): Promise<void> {
  const query = ctx.url.searchParams;
  let filter: AuditFilter;
  try {
    filter = auditFilter(ctx.workspace.id, query);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return renderPage(
      ctx,
      400,
      { entries: [], next: undefined },
      { field: error.param ?? "", message: sentence(error.message) },
      await namesFor(ctx, []),
    );
  }
  const after = positionOf(ctx);
  const page = await listAuditLog(ctx.deps.db, filter, { limit: ENTRIES_PER_PAGE, ...(after ? { after } : {}) });
  return renderPage(ctx, 200, page, undefined, await namesFor(ctx, page.entries), after !== undefined);
}

function renderPage(
  ctx: WorkspaceContext,
  status: number,
  page: { entries: AuditEntry[]; next: AuditPosition | undefined },
  error: { field: string; message: string } | undefined,
  names: Names & { appList: { clientId: string; clientName: string }[] },
  notFirst = false,
): void {
  const query = ctx.url.searchParams;
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  const credential = query.get("credential") ?? "";
  const kind = query.get("kind") ?? "";
  const keys = [...names.keys.values()];
  const next = page.next
    ? `${ctx.base}/audit${filterQuery(query, { after: pageToken(ctx.deps.cursors, auditList(ctx), { created_at: page.next.occurredAt.toISOString(), id: String(page.next.id) }) })}`
    : undefined;
  const rows = page.entries.map(
    (entry) => html`<tr>
<td>${time(entry.occurredAt)}</td>
<td>${who(entry, names)}</td>
<td>${what(entry)}</td>
<td>${entry.ip ?? none()}</td>
<td>${entry.status ?? none()}</td>
</tr>`,
  );
  sendConsolePage(ctx, status, {
    title: "Audit log",
    section: "audit",
    body: html`<p>Every API request made with this workspace's keys and apps (the credential, the endpoint, the caller's address and the status), and every change made in these settings or by the operator.</p>
${error ? message("error", html`The filters could not be used: ${error.message}`) : ""}
<form method="get" action="${ctx.base}/audit" class="filters" aria-labelledby="filters-heading">
<h2 id="filters-heading" class="visually-hidden">Filters</h2>
<div class="field">
<label for="filter-credential">Credential</label>
<select id="filter-credential" name="credential"${describedBy("filter-credential", errorOf("credential"))}>
<option value="">Any</option>
${keys.length ? html`<optgroup label="API keys">${keys.map((key) => html`<option value="${key.id}"${key.id === credential ? html` selected` : ""}>${key.name} (${keyDisplay(key)})</option>`)}</optgroup>` : ""}
${names.appList.length ? html`<optgroup label="Connected apps">${names.appList.map((app) => html`<option value="${app.clientId}"${app.clientId === credential ? html` selected` : ""}>${app.clientName}</option>`)}</optgroup>` : ""}
</select>
${fieldError("filter-credential", errorOf("credential"))}
</div>
<div class="field">
<label for="filter-status">Status</label>
<input id="filter-status" name="status" type="text" inputmode="numeric" size="5" maxlength="3" pattern="[1-5]([0-9][0-9]|xx|XX)" placeholder="4xx" value="${query.get("status") ?? ""}"${describedBy("filter-status", errorOf("status"), true)}>
<p class="hint" id="filter-status-hint">404, or 4xx</p>
${fieldError("filter-status", errorOf("status"))}
</div>
<div class="field">
<label for="filter-kind">Kind</label>
<select id="filter-kind" name="kind"${describedBy("filter-kind", errorOf("kind"))}>
<option value=""${kind === "" ? html` selected` : ""}>Requests and actions</option>
<option value="requests"${kind === "requests" ? html` selected` : ""}>API requests</option>
<option value="actions"${kind === "actions" ? html` selected` : ""}>Settings actions</option>
</select>
${fieldError("filter-kind", errorOf("kind"))}
</div>
<div class="field">
<label for="filter-from">From (UTC)</label>
<input id="filter-from" name="from" type="datetime-local" step="1" value="${query.get("from") ?? ""}"${describedBy("filter-from", errorOf("from"))}>
${fieldError("filter-from", errorOf("from"))}
</div>
<div class="field">
<label for="filter-to">Before (UTC)</label>
<input id="filter-to" name="to" type="datetime-local" step="1" value="${query.get("to") ?? ""}"${describedBy("filter-to", errorOf("to"))}>
${fieldError("filter-to", errorOf("to"))}
</div>
<div class="actions"><button type="submit">Apply filters</button> <a href="${ctx.base}/audit">Clear</a></div>
</form>
${error ? "" : html`<p><a href="${ctx.base}/audit.csv${filterQuery(query)}" download>Download these entries as CSV</a></p>`}
${error ? "" : table({ caption: "Audit log entries, newest first", columns: ["Time", "Who", "What", "IP address", "Status"], rows, empty: "No entries match these filters." })}
${pager(next, notFirst, `${ctx.base}/audit${filterQuery(query)}`)}`,
  });
}

async function auditCsv(ctx: WorkspaceContext): Promise<void> {
  const filter = auditFilter(ctx.workspace.id, ctx.url.searchParams); // InvalidInputError → 400 page
  const response = ctx.response;
  response.statusCode = 200;
  response.setHeader("Content-Type", "text/csv; charset=utf-8");
  response.setHeader(
    "Content-Disposition",
    `attachment; filename="audit-${ctx.workspace.slug}-${new Date().toISOString().slice(0, 10)}.csv"`,
  );
  response.setHeader("Cache-Control", "no-store");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  response.write(AUDIT_CSV_HEADER);
  for await (const entry of eachAuditEntry(ctx.deps.db, filter)) {
    if (response.destroyed) return; // the browser went away
    if (!response.write(auditCsvLine(entry))) await drained(response);
  }
  response.end();
}

/** Resolves when the response can take more, or has closed (the loop then stops). */
function drained(response: WorkspaceContext["response"]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}

export const auditRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/audit$/, handle: auditPage },
  { method: "GET", path: /^\/audit\.csv$/, handle: auditCsv },
];
