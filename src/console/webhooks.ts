// Webhooks: a partition's endpoints (live by default, test with `?environment=test`), registering
// one with its signing secret shown once, and per endpoint: edit, enable/disable, rotate the secret
// (shown once), send a test event, delete, and the delivery log with every attempt and redelivery.
// Owners and admins change things; members read.
import type { SchemaEventType, SchemaWebhookDelivery, SchemaWebhookEndpoint } from "../../generated/schema.d.ts";
import { InvalidInputError } from "../domain/errors.ts";
import { administers } from "../domain/members.ts";
import type { Partition } from "../domain/partition.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  PREVIOUS_SECRET_GRACE_MS,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhookEndpoint,
  withAttemptLogs,
} from "../domain/webhooks.ts";
import { environments, type Environment } from "../domain/partition.ts";
import { html, type Html } from "../html/template.ts";
import { redirect } from "../pages/respond.ts";
import { recordAction, sendConsolePage, sendErrorPage, type WorkspaceCtx } from "./context.ts";
import { pageAfter, pageToken } from "./cursor.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { describedBy, fieldError, message, none, secretOnce, sentence, table, time } from "./layout.ts";
import { csrfField } from "../pages/csrf.ts";

/** The contract's event types, for the enabled-events checkboxes. */
export const EVENT_TYPES = [
  "project.created",
  "project.updated",
  "project.deleted",
  "agent_run.queued",
  "agent_run.started",
  "agent_run.succeeded",
  "agent_run.failed",
  "agent_run.canceled",
  "deployment.queued",
  "deployment.ready",
  "deployment.failed",
  "file.uploaded",
  "file.deleted",
  "webhook.test",
] as const satisfies readonly SchemaEventType[];
/** Fails to compile when the contract gains an event type this list lacks. */
export const eventTypesFollowTheContract: [SchemaEventType] extends [(typeof EVENT_TYPES)[number]] ? true : never = true;

type EnabledEvents = SchemaWebhookEndpoint["enabled_events"];

const ENDPOINTS_PER_PAGE = 20;
const DELIVERIES_PER_PAGE = 10;

const NOTICES: Record<string, string> = {
  tested: "A test event was queued to this endpoint. Its delivery appears in the log below.",
  redelivered: "The event was queued again as a new delivery (shown at the top of the log).",
  updated: "The endpoint was updated.",
  enabled: "The endpoint was enabled: it receives the events it subscribes to again.",
  disabled: "The endpoint was disabled: no events are sent to it until it is enabled (test events still are).",
  deleted: "The endpoint was deleted, with its deliveries.",
};

function environmentOf(value: string | null): Environment {
  return (environments as readonly string[]).includes(value ?? "") ? (value as Environment) : "live";
}

function partitionOf(ctx: WorkspaceCtx, environment: Environment): Partition {
  return { workspaceId: ctx.workspace.id, environment };
}

/** `?environment=test` for the test partition, nothing for live. */
function envQuery(environment: Environment, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(environment === "test" ? { environment } : {}), ...extra }).toString();
  return query ? `?${query}` : "";
}

function environmentSwitch(ctx: WorkspaceCtx, environment: Environment): Html {
  return html`<nav class="switcher" aria-label="Environment">
<ul>${environments.map(
    (env) =>
      html`<li><a href="${ctx.base}/webhooks${envQuery(env)}"${env === environment ? html` aria-current="page"` : ""}>${env === "live" ? "Live" : "Test"}</a></li>`,
  )}</ul>
</nav>`;
}

function eventsSummary(list: readonly string[]): string {
  return list.includes("*") ? "All events" : list.join(", ");
}

function enabledEventsOf(form: URLSearchParams): EnabledEvents {
  const chosen = form.getAll("enabled_events");
  const unknown = chosen.filter((type) => type !== "*" && !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw new InvalidInputError(`unknown event type ${unknown.join(", ")}`, "enabled_events");
  return chosen as EnabledEvents;
}

/** The contract bounds a description to 500 characters (the API checks it against the contract; the console here). */
function descriptionOf(form: URLSearchParams): string {
  const description = (form.get("description") ?? "").trim();
  if (description.length > 500) throw new InvalidInputError("the description must be at most 500 characters", "description");
  return description;
}

interface FormState {
  readonly values?: URLSearchParams;
  readonly error?: { field: string; message: string };
}

const FIELD_OF_PARAM: Record<string, string> = { url: "url", description: "description", enabled_events: "enabled_events" };

function invalid(error: InvalidInputError): { field: string; message: string } {
  return { field: FIELD_OF_PARAM[error.param ?? ""] ?? "url", message: sentence(error.message) };
}

/** The url, description and events fields, shared by the register and edit forms. */
function endpointFields(prefix: string, state: FormState, current?: SchemaWebhookEndpoint): Html {
  const values = state.values;
  const errorOf = (field: string) => (state.error?.field === field ? state.error.message : undefined);
  const events = values ? values.getAll("enabled_events") : (current?.enabled_events ?? ["*"]);
  return html`<div class="field">
<label for="${prefix}-url">Endpoint URL</label>
<input id="${prefix}-url" name="url" type="url" required maxlength="2048" inputmode="url" placeholder="https://example.com/webhooks" value="${values?.get("url") ?? current?.url ?? ""}"${describedBy(`${prefix}-url`, errorOf("url"), true)}>
<p class="hint" id="${prefix}-url-hint">An https address on the public internet. Deliveries are POST requests signed with the endpoint's secret.</p>
${fieldError(`${prefix}-url`, errorOf("url"))}
</div>
<div class="field">
<label for="${prefix}-description">Description <span class="optional">(optional)</span></label>
<input id="${prefix}-description" name="description" type="text" maxlength="500" value="${values?.get("description") ?? current?.description ?? ""}"${describedBy(`${prefix}-description`, errorOf("description"))}>
${fieldError(`${prefix}-description`, errorOf("description"))}
</div>
<fieldset${describedBy(`${prefix}-events`, errorOf("enabled_events"), true)}>
<legend>Events to send</legend>
<p class="hint" id="${prefix}-events-hint">All events is the default, and includes event types added later.</p>
<div class="choice"><input type="checkbox" id="${prefix}-event-all" name="enabled_events" value="*"${events.includes("*") ? html` checked` : ""}> <label for="${prefix}-event-all">All events</label></div>
<div class="columns">${EVENT_TYPES.map(
    (type, index) =>
      html`<div class="choice"><input type="checkbox" id="${prefix}-event-${index}" name="enabled_events" value="${type}"${events.includes(type) ? html` checked` : ""}> <label for="${prefix}-event-${index}"><code>${type}</code></label></div>`,
  )}</div>
${fieldError(`${prefix}-events`, errorOf("enabled_events"))}
</fieldset>`;
}

// ---------------------------------------------------------------------------------------------
// The list and registering

interface ListState extends FormState {
  readonly status: number;
  readonly environment: Environment;
  readonly created?: { id: string; url: string; secret: string };
}

async function listPage(ctx: WorkspaceCtx, state: ListState): Promise<void> {
  const environment = state.environment;
  const endpointsList = { name: "webhooks", workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(ctx.deps.cursors, endpointsList, ctx.method === "GET" ? ctx.url.searchParams.get("after") : null);
  const page = await listWebhookEndpoints(ctx.deps.db, partitionOf(ctx, environment), { limit: ENDPOINTS_PER_PAGE, ...(after ? { after } : {}) });
  const admin = administers(ctx.role);
  const notice = NOTICES[ctx.url.searchParams.get("notice") ?? ""];
  const rows = page.items.map(
    (endpoint) => html`<tr>
<th scope="row"><a href="${ctx.base}/webhooks/${endpoint.id}${envQuery(environment)}">${endpoint.url}</a></th>
<td>${endpoint.description ?? none()}</td>
<td>${eventsSummary(endpoint.enabled_events)}</td>
<td><span class="status status-${endpoint.status}">${endpoint.status}</span>${endpoint.disabled_reason ? html`<br><span class="meta">${endpoint.disabled_reason}</span>` : ""}</td>
<td>${time(endpoint.created_at)}</td>
</tr>`,
  );
  sendConsolePage(ctx, state.status, {
    title: "Webhooks",
    section: "webhooks",
    body: html`${environmentSwitch(ctx, environment)}
${
  state.created
    ? secretOnce({
        heading: "Endpoint registered",
        label: "Signing secret",
        secret: state.created.secret,
        explanation: html`Copy the signing secret now: it is shown only this once. Receivers verify each delivery's <code>webhook-signature</code> header with it. <a href="${ctx.base}/webhooks/${state.created.id}${envQuery(environment)}">Open the endpoint</a> to send a test event.`,
      })
    : ""
}
${notice ? message("notice", notice) : ""}
<p>Endpoints of the <strong>${environment}</strong> environment receive its events as signed POST requests.</p>
${table({ caption: `Webhook endpoints (${environment})`, columns: ["URL", "Description", "Events", "Status", "Created"], rows, empty: `No webhook endpoints in the ${environment} environment yet.` })}
${pager(ctx, page.next ? `${ctx.base}/webhooks${envQuery(environment, { after: pageToken(ctx.deps.cursors, endpointsList, page.next) })}` : undefined, after !== undefined, `${ctx.base}/webhooks${envQuery(environment)}`)}
${
  admin
    ? html`<section class="panel" aria-labelledby="register-heading">
<h2 id="register-heading">Register an endpoint</h2>
${state.error ? message("error", html`The endpoint was not registered: ${state.error.message}`) : ""}
<form method="post" action="${ctx.base}/webhooks" class="stack">
${csrfField(ctx.visitor.csrf)}
<input type="hidden" name="environment" value="${environment}">
${endpointFields("new", state.created ? {} : state)}
<div class="actions"><button type="submit" class="primary">Register endpoint</button></div>
</form>
</section>`
    : html`<p class="hint">Only owners and admins of the workspace can register or change webhook endpoints. Your role is ${ctx.role}.</p>`
}`,
  });
}

export function pager(_ctx: WorkspaceCtx, next: string | undefined, notFirst: boolean, first: string): Html {
  if (!next && !notFirst) return html``;
  return html`<nav class="pager" aria-label="Pages">
${notFirst ? html`<a href="${first}">First page</a>` : ""}
${next ? html`<a href="${next}" rel="next">Next page</a>` : html`<span class="meta">Last page</span>`}
</nav>`;
}

async function registerEndpoint(ctx: WorkspaceCtx, _params: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  try {
    const enabledEvents = enabledEventsOf(form);
    const description = descriptionOf(form);
    const url = await ctx.deps.webhookTargets.check(form.get("url") ?? ""); // fails fast, before a transaction opens
    const created = await ctx.deps.db.transaction(async (tx) => {
      const endpoint = await createWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), {
        url,
        enabled_events: enabledEvents,
        ...(description ? { description } : {}),
      });
      await recordAction(tx, ctx, "webhook_endpoint.created", endpoint.id, 200);
      return endpoint;
    });
    await listPage(ctx, { status: 200, environment, created: { id: created.id, url: created.url, secret: created.secret } });
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    await listPage(ctx, { status: 400, environment, values: form, error: invalid(error) });
  }
}

// ---------------------------------------------------------------------------------------------
// One endpoint

interface EndpointState extends FormState {
  readonly status: number;
  readonly environment: Environment;
  readonly rotatedSecret?: string;
}

async function endpointPage(ctx: WorkspaceCtx, endpointId: string, state: EndpointState): Promise<void> {
  const environment = state.environment;
  const partition = partitionOf(ctx, environment);
  const endpoint = await getWebhookEndpoint(ctx.deps.db, partition, endpointId);
  const deliveriesList = { name: `deliveries:${endpointId}`, workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(ctx.deps.cursors, deliveriesList, ctx.method === "GET" ? ctx.url.searchParams.get("after") : null);
  const page = await listWebhookDeliveries(ctx.deps.db, partition, endpointId, { limit: DELIVERIES_PER_PAGE, ...(after ? { after } : {}) }, {});
  const deliveries = await withAttemptLogs(ctx.deps.db, page.items);
  const admin = administers(ctx.role);
  const notice = NOTICES[ctx.url.searchParams.get("notice") ?? ""];
  const here = `${ctx.base}/webhooks/${endpoint.id}`;
  const hidden = html`${csrfField(ctx.visitor.csrf)}<input type="hidden" name="environment" value="${environment}">`;
  sendConsolePage(ctx, state.status, {
    title: "Webhook endpoint",
    heading: `Endpoint ${endpoint.url}`,
    section: "webhooks",
    body: html`<p><a href="${ctx.base}/webhooks${envQuery(environment)}">All ${environment} endpoints</a></p>
${
  state.rotatedSecret
    ? secretOnce({
        heading: "New signing secret",
        label: "Signing secret",
        secret: state.rotatedSecret,
        explanation: `Copy the new secret now: it is shown only this once. For the next ${PREVIOUS_SECRET_GRACE_MS / 3_600_000} hours deliveries carry a signature with the previous secret too, so receivers can switch without missing any.`,
      })
    : ""
}
${notice ? message("notice", notice) : ""}
<dl class="facts">
<dt>Status</dt><dd><span class="status status-${endpoint.status}">${endpoint.status}</span>${endpoint.disabled_reason ? html` — ${endpoint.disabled_reason}` : ""}</dd>
<dt>Environment</dt><dd>${environment}</dd>
<dt>Description</dt><dd>${endpoint.description ?? none()}</dd>
<dt>Events</dt><dd>${eventsSummary(endpoint.enabled_events)}</dd>
<dt>Id</dt><dd><code>${endpoint.id}</code></dd>
<dt>Created</dt><dd>${time(endpoint.created_at)}</dd>
<dt>Updated</dt><dd>${time(endpoint.updated_at)}</dd>
</dl>
${
  admin
    ? html`<section class="panel" aria-labelledby="actions-heading">
<h2 id="actions-heading">Actions</h2>
<div class="action-list">
<form method="post" action="${here}/test">${hidden}<button type="submit">Send test event</button></form>
<form method="post" action="${here}/rotate">${hidden}<button type="submit">Rotate signing secret</button></form>
<form method="post" action="${here}/status">${hidden}<input type="hidden" name="status" value="${endpoint.status === "enabled" ? "disabled" : "enabled"}"><button type="submit">${endpoint.status === "enabled" ? "Disable endpoint" : "Enable endpoint"}</button></form>
<a class="button danger" href="${here}/delete${envQuery(environment)}">Delete endpoint…</a>
</div>
</section>`
    : html`<p class="hint">Only owners and admins of the workspace can change this endpoint. Your role is ${ctx.role}.</p>`
}
<section aria-labelledby="log-heading">
<h2 id="log-heading">Delivery log</h2>
${deliveries.length === 0 ? html`<p class="empty">No deliveries yet.</p>` : deliveries.map((delivery) => deliveryBlock(here, hidden, delivery, admin))}
${pager(ctx, page.next ? `${here}${envQuery(environment, { after: pageToken(ctx.deps.cursors, deliveriesList, page.next) })}` : undefined, after !== undefined, `${here}${envQuery(environment)}`)}
</section>
${
  admin
    ? html`<section class="panel" aria-labelledby="edit-heading">
<h2 id="edit-heading">Edit endpoint</h2>
${state.error ? message("error", html`The endpoint was not changed: ${state.error.message}`) : ""}
<form method="post" action="${here}/update" class="stack">
${hidden}
${endpointFields("edit", state, endpoint)}
<div class="actions"><button type="submit" class="primary">Save changes</button></div>
</form>
</section>`
    : ""
}`,
  });
}

function deliveryBlock(here: string, hidden: Html, delivery: SchemaWebhookDelivery, admin: boolean): Html {
  const headingId = `delivery-${delivery.id}`;
  const attempts = delivery.attempt_log ?? [];
  return html`<article class="delivery" aria-labelledby="${headingId}">
<h3 id="${headingId}"><code>${delivery.event_type}</code> <span class="status status-${delivery.status}">${delivery.status}</span></h3>
<p class="meta">Delivery <code>${delivery.id}</code> of event <code>${delivery.event_id}</code> · queued ${time(delivery.created_at)} · ${delivery.attempts} ${delivery.attempts === 1 ? "attempt" : "attempts"}${
    delivery.next_attempt_at ? html` · next attempt ${time(delivery.next_attempt_at)}` : ""
  }</p>
${table({
  caption: html`Attempts of delivery <code>${delivery.id}</code>, newest first`,
  captionHidden: true,
  columns: ["Attempted", "Duration", "Response", "Detail"],
  rows: attempts.map(
    (attempt) => html`<tr>
<td>${time(attempt.attempted_at)}</td>
<td>${attempt.duration_ms} ms</td>
<td>${attempt.response_status ?? none()}</td>
<td>${attempt.error ? html`<span class="error-text">${attempt.error}</span>` : attempt.response_body ? html`<code class="body">${attempt.response_body.slice(0, 200)}</code>` : none()}</td>
</tr>`,
  ),
  empty: delivery.status === "pending" ? "Not attempted yet." : "No attempts recorded.",
})}
${
  admin
    ? html`<form method="post" action="${here}/deliveries/${delivery.id}/redeliver">${hidden}<button type="submit" aria-label="Redeliver ${delivery.event_type} (${delivery.id})">Redeliver</button></form>`
    : ""
}
</article>`;
}

const ENDPOINT = "(we_[A-Za-z0-9]{1,64})";

async function updateEndpoint(ctx: WorkspaceCtx, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  try {
    const enabledEvents = enabledEventsOf(form);
    const description = descriptionOf(form);
    const url = await ctx.deps.webhookTargets.check(form.get("url") ?? "");
    await ctx.deps.db.transaction(async (tx) => {
      await updateWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), endpointId!, {
        url,
        description: description || null,
        enabled_events: enabledEvents,
      });
      await recordAction(tx, ctx, "webhook_endpoint.updated", endpointId!, 303);
    });
    redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "updated" })}`);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    await endpointPage(ctx, endpointId!, { status: 400, environment, values: form, error: invalid(error) });
  }
}

async function setStatus(ctx: WorkspaceCtx, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  const status = form.get("status");
  if (status !== "enabled" && status !== "disabled") throw new InvalidInputError("the status must be enabled or disabled", "status");
  await ctx.deps.db.transaction(async (tx) => {
    await updateWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), endpointId!, { status });
    await recordAction(tx, ctx, "webhook_endpoint.updated", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: status })}`);
}

async function rotateSecret(ctx: WorkspaceCtx, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  const rotated = await ctx.deps.db.transaction(async (tx) => {
    const endpoint = await rotateWebhookSecret(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.secret_rotated", endpointId!, 200);
    return endpoint;
  });
  await endpointPage(ctx, endpointId!, { status: 200, environment, rotatedSecret: rotated.secret });
}

async function testEndpoint(ctx: WorkspaceCtx, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await sendTestEvent(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.tested", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "tested" })}`);
}

async function redeliverDelivery(ctx: WorkspaceCtx, [endpointId, deliveryId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await redeliver(tx, partitionOf(ctx, environment), endpointId!, deliveryId!);
    await recordAction(tx, ctx, "webhook_delivery.redelivered", deliveryId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "redelivered" })}`);
}

async function confirmDelete(ctx: WorkspaceCtx, [endpointId]: string[]): Promise<void> {
  const environment = environmentOf(ctx.url.searchParams.get("environment"));
  const endpoint = await getWebhookEndpoint(ctx.deps.db, partitionOf(ctx, environment), endpointId!);
  if (!administers(ctx.role)) {
    return sendErrorPage(ctx, 403, `Only a workspace owner or admin can delete webhook endpoints. Your role is ${ctx.role}.`, {
      back: { href: `${ctx.base}/webhooks/${endpoint.id}${envQuery(environment)}`, label: "Back to the endpoint" },
    });
  }
  sendConsolePage(ctx, 200, {
    title: "Delete endpoint",
    heading: "Delete this webhook endpoint?",
    section: "webhooks",
    body: html`<p><code>${endpoint.url}</code> (${environment}) will receive no more events, and its delivery log is deleted with it, pending deliveries included. To pause deliveries instead, disable the endpoint.</p>
<form method="post" action="${ctx.base}/webhooks/${endpoint.id}/delete" class="actions">
${csrfField(ctx.visitor.csrf)}<input type="hidden" name="environment" value="${environment}">
<button type="submit" class="danger">Delete endpoint</button>
<a href="${ctx.base}/webhooks/${endpoint.id}${envQuery(environment)}">Cancel</a>
</form>`,
  });
}

async function deleteEndpoint(ctx: WorkspaceCtx, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await deleteWebhookEndpoint(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.deleted", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks${envQuery(environment, { notice: "deleted" })}`);
}

export const webhookRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/webhooks$/, handle: (ctx) => listPage(ctx, { status: 200, environment: environmentOf(ctx.url.searchParams.get("environment")) }) },
  { method: "POST", path: /^\/webhooks$/, admin: "register webhook endpoints", handle: registerEndpoint },
  {
    method: "GET",
    path: new RegExp(`^/webhooks/${ENDPOINT}$`),
    handle: (ctx, [id]) => endpointPage(ctx, id!, { status: 200, environment: environmentOf(ctx.url.searchParams.get("environment")) }),
  },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/update$`), admin: "change webhook endpoints", handle: updateEndpoint },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/status$`), admin: "enable or disable webhook endpoints", handle: setStatus },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/rotate$`), admin: "rotate webhook secrets", handle: rotateSecret },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/test$`), admin: "send test events", handle: testEndpoint },
  { method: "GET", path: new RegExp(`^/webhooks/${ENDPOINT}/delete$`), handle: confirmDelete },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/delete$`), admin: "delete webhook endpoints", handle: deleteEndpoint },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/deliveries/(dlv_[A-Za-z0-9]{1,64})/redeliver$`),
    admin: "redeliver webhook events",
    handle: redeliverDelivery,
  },
];
