// Connected apps: the OAuth applications members authorized to act in this workspace, with their
// scopes and who authorized them; owners and admins revoke them (every token of the grant goes).
import { administers } from "../domain/members.ts";
import { listConnectedApps, revokeConnectedApp } from "../domain/connected-apps.ts";
import { html } from "../html/template.ts";
import { redirect } from "../pages/respond.ts";
import { recordAction, sendConsolePage, sendErrorPage, type WorkspaceContext } from "./context.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { confirmForm, message, none, table, time } from "./layout.ts";

const NOTICES: Record<string, string> = {
  revoked:
    "The app was disconnected: its tokens are refused from now on. It needs a new authorization to act in this workspace again.",
};

function scopeList(scopes: readonly string[]): string {
  return scopes.includes("*") ? "Full access" : scopes.join(", ");
}

async function appsPage(ctx: WorkspaceContext): Promise<void> {
  const apps = await listConnectedApps(ctx.deps.db, ctx.workspace.id);
  const admin = administers(ctx.role);
  const notice = NOTICES[ctx.url.searchParams.get("notice") ?? ""];
  sendConsolePage(ctx, 200, {
    title: "Connected apps",
    section: "apps",
    body: html`${notice ? message("notice", notice) : ""}
<p>Third-party applications that members of this workspace allowed to use the API on their behalf (OAuth). An app acts with the scopes it was granted, never beyond what the member who authorized it may do.</p>
${table({
  caption: "Apps connected to this workspace",
  columns: ["App", "Scopes", "Authorized by", "Authorized", "Last used", ...(admin ? ["Action"] : [])],
  rows: apps.map(
    (app) => html`<tr>
<th scope="row">${app.clientName}<br><code class="meta nowrap">${app.clientId}</code></th>
<td>${scopeList(app.scopes)}</td>
<td>${app.authorizedBy}</td>
<td>${time(app.authorizedAt)}</td>
<td>${app.lastUsedAt ? time(app.lastUsedAt) : none()}</td>
${admin ? html`<td><a href="${ctx.base}/apps/${encodeURIComponent(app.clientId)}/revoke" aria-label="Disconnect ${app.clientName}">Disconnect</a></td>` : ""}
</tr>`,
  ),
  empty: "No apps are connected to this workspace.",
})}
${admin ? "" : html`<p class="hint">Only owners and admins of the workspace can disconnect apps. Your role is ${ctx.role}.</p>`}`,
  });
}

async function confirmRevoke(ctx: WorkspaceContext, [clientId]: string[]): Promise<void> {
  const app = (await listConnectedApps(ctx.deps.db, ctx.workspace.id)).find((entry) => entry.clientId === clientId);
  const back = { href: `${ctx.base}/apps`, label: "Back to connected apps" };
  if (!app) return sendErrorPage(ctx, 404, "This app is not connected to this workspace.", { back });
  if (!administers(ctx.role))
    return sendErrorPage(ctx, 403, `Only a workspace owner or admin can disconnect apps. Your role is ${ctx.role}.`, {
      back,
    });
  sendConsolePage(ctx, 200, {
    title: "Disconnect app",
    heading: `Disconnect ${app.clientName}?`,
    section: "apps",
    body: html`<p>${app.clientName} (authorized by ${app.authorizedBy} with ${scopeList(app.scopes)}) loses access to this workspace at once: its access and refresh tokens are refused from the next request.</p>
${confirmForm({ action: `${ctx.base}/apps/${encodeURIComponent(app.clientId)}/revoke`, csrf: ctx.visitor.csrf, button: "Disconnect app", cancel: `${ctx.base}/apps` })}`,
  });
}

async function revoke(ctx: WorkspaceContext, [clientId]: string[]): Promise<void> {
  const revoked = await ctx.deps.db.transaction(async (tx) => {
    const count = await revokeConnectedApp(tx, ctx.workspace.id, clientId!);
    if (count > 0) await recordAction(tx, ctx, "oauth_app.revoked", clientId!, 303);
    return count;
  });
  if (revoked === 0) {
    return sendErrorPage(ctx, 404, "This app is not connected to this workspace; nothing was changed.", {
      back: { href: `${ctx.base}/apps`, label: "Back to connected apps" },
    });
  }
  redirect(ctx.response, `${ctx.base}/apps?notice=revoked`);
}

const CLIENT = "(pbc_[A-Za-z0-9]{1,64})";

export const appRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/apps$/, handle: appsPage },
  { method: "GET", path: new RegExp(`^/apps/${CLIENT}/revoke$`), handle: confirmRevoke },
  { method: "POST", path: new RegExp(`^/apps/${CLIENT}/revoke$`), admin: "disconnect apps", handle: revoke },
];
