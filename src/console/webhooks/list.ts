// The webhooks page: a partition's endpoints, a page at a time, with the register form (and the
// signing secret of an endpoint just registered, shown once).
import { administers } from "../../domain/members.ts";
import { listWebhookEndpoints } from "../../domain/webhooks.ts";
import type { Environment } from "../../domain/partition.ts";
import { html } from "../../html/template.ts";
import { csrfField } from "../../pages/csrf.ts";
import { sendConsolePage, type WorkspaceContext } from "../context.ts";
import { pageAfter, pageToken } from "../cursor.ts";
import { message, none, secretOnce, table, time } from "../layout.ts";
import { pager } from "../pager.ts";
import { endpointFields, eventsSummary, type FormState } from "./endpoint-form.ts";
import { envQuery, environmentSwitch, partitionOf } from "../environment.ts";
import { NOTICES } from "./notices.ts";

const ENDPOINTS_PER_PAGE = 20;

export interface ListState extends FormState {
  readonly status: number;
  readonly environment: Environment;
  readonly created?: { id: string; url: string; secret: string };
}

export async function listPage(ctx: WorkspaceContext, state: ListState): Promise<void> {
  const environment = state.environment;
  const endpointsList = { name: "webhooks", workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(
    ctx.deps.cursors,
    endpointsList,
    ctx.method === "GET" ? ctx.url.searchParams.get("after") : null,
  );
  const page = await listWebhookEndpoints(ctx.deps.db, partitionOf(ctx, environment), {
    limit: ENDPOINTS_PER_PAGE,
    ...(after ? { after } : {}),
  });
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
    body: html`${environmentSwitch(`${ctx.base}/webhooks`, environment)}
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
${pager(page.next ? `${ctx.base}/webhooks${envQuery(environment, { after: pageToken(ctx.deps.cursors, endpointsList, page.next) })}` : undefined, after !== undefined, `${ctx.base}/webhooks${envQuery(environment)}`)}
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
