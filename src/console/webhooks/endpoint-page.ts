// One endpoint's page: its facts, the admin actions, its delivery log, and the edit form (with a
// rotated secret shown once, or a refused edit's error).
import { administers } from "../../domain/members.ts";
import {
  getWebhookEndpoint,
  listWebhookDeliveries,
  PREVIOUS_SECRET_GRACE_MS,
  withAttemptLogs,
} from "../../domain/webhooks.ts";
import type { Environment } from "../../domain/partition.ts";
import { html } from "../../html/template.ts";
import { csrfField } from "../../pages/csrf.ts";
import { sendConsolePage, type WorkspaceContext } from "../context.ts";
import { pageAfter, pageToken } from "../cursor.ts";
import { message, none, secretOnce, time } from "../layout.ts";
import { pager } from "../pager.ts";
import { deliveryBlock } from "./delivery-log.ts";
import { endpointFields, eventsSummary, type FormState } from "./endpoint-form.ts";
import { envQuery, partitionOf } from "../environment.ts";
import { NOTICES } from "./notices.ts";

const DELIVERIES_PER_PAGE = 10;

export interface EndpointState extends FormState {
  readonly status: number;
  readonly environment: Environment;
  readonly rotatedSecret?: string;
}

export async function endpointPage(ctx: WorkspaceContext, endpointId: string, state: EndpointState): Promise<void> {
  const environment = state.environment;
  const partition = partitionOf(ctx, environment);
  const endpoint = await getWebhookEndpoint(ctx.deps.db, partition, endpointId);
  const deliveriesList = { name: `deliveries:${endpointId}`, workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(
    ctx.deps.cursors,
    deliveriesList,
    ctx.method === "GET" ? ctx.url.searchParams.get("after") : null,
  );
  const page = await listWebhookDeliveries(
    ctx.deps.db,
    partition,
    endpointId,
    { limit: DELIVERIES_PER_PAGE, ...(after ? { after } : {}) },
    {},
  );
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
${pager(page.next ? `${here}${envQuery(environment, { after: pageToken(ctx.deps.cursors, deliveriesList, page.next) })}` : undefined, after !== undefined, `${here}${envQuery(environment)}`)}
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
