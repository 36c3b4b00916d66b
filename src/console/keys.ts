// API keys: the list (everyone), creating one with its secret shown once, and revoking one (owners
// and admins).
import { InvalidInputError } from "../domain/errors.ts";
import {
  createApiKey,
  expiryChoices,
  keyStatus,
  listApiKeys,
  revokeApiKey,
  SCOPE_DESCRIPTIONS,
  scopes,
  type ApiKeyRecord,
  type ExpiryChoice,
} from "../domain/keys.ts";
import { administers, findUser } from "../domain/members.ts";
import type { Environment } from "../storage/schema.ts";
import { html, type Html } from "../html/template.ts";
import { redirect } from "../pages/respond.ts";
import { recordAction, sendConsolePage, sendErrorPage, type WorkspaceContext } from "./context.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { confirmForm, describedBy, fieldError, message, none, secretOnce, sentence, table, time } from "./layout.ts";
import { csrfField } from "../pages/csrf.ts";

const EXPIRY_LABELS: Record<ExpiryChoice, string> = {
  "30d": "30 days",
  "90d": "90 days",
  "1y": "1 year",
  none: "No expiry",
};

const NOTICES: Record<string, string> = {
  revoked: "The key was revoked. Requests made with it are refused from now on.",
  "already-revoked": "The key was already revoked.",
};

export function keyDisplay(key: Pick<ApiKeyRecord, "displayPrefix" | "last4">): string {
  return `${key.displayPrefix}…${key.last4}`;
}

function scopeSummary(list: readonly string[]): string {
  return list.includes("*") ? "Full access" : list.join(", ");
}

/** Who created each key, by email; `pbs` for the operator CLI. */
async function creators(ctx: WorkspaceContext, keys: readonly ApiKeyRecord[]): Promise<Map<string, string>> {
  const ids = [...new Set(keys.map((key) => key.createdBy).filter((id): id is string => id !== null && id !== "pbs"))];
  const found = await Promise.all(
    ids.map(async (id) => [id, (await findUser(ctx.deps.db, id))?.email ?? "a former member"] as const),
  );
  return new Map([...found, ["pbs", "pbs"]]);
}

interface KeysPageState {
  readonly status: number;
  readonly created?: { key: ApiKeyRecord; secret: string };
  /** A refused creation: the values sent, and the error by field. */
  readonly form?: URLSearchParams;
  readonly error?: { field: string; message: string };
}

async function keysPage(ctx: WorkspaceContext, state: KeysPageState): Promise<void> {
  const keys = await listApiKeys(ctx.deps.db, ctx.workspace.id);
  const byId = await creators(ctx, keys);
  const admin = administers(ctx.role);
  const now = new Date();
  const notice = NOTICES[ctx.url.searchParams.get("notice") ?? ""];
  const rows = keys.map((key) => {
    const status = keyStatus(key, now);
    return html`<tr${state.created?.key.id === key.id ? html` class="highlight"` : ""}>
<th scope="row">${key.name}</th>
<td><code class="nowrap">${keyDisplay(key)}</code></td>
<td>${key.environment}</td>
<td>${scopeSummary(key.scopes)}</td>
<td>${time(key.expiresAt)}</td>
<td>${time(key.lastUsedAt)}</td>
<td>${key.createdBy ? (byId.get(key.createdBy) ?? key.createdBy) : none()}</td>
<td><span class="status status-${status}">${status}</span></td>
${admin ? html`<td>${status === "revoked" ? none() : html`<a href="${ctx.base}/keys/${key.id}/revoke" aria-label="Revoke key ${key.name}">Revoke</a>`}</td>` : ""}
</tr>`;
  });
  sendConsolePage(ctx, state.status, {
    title: "API keys",
    section: "keys",
    body: html`${
      state.created
        ? secretOnce({
            heading: `Key “${state.created.key.name}” created`,
            label: "Secret key",
            secret: state.created.secret,
            explanation: html`Copy the key now. This is the only time it is shown: the service keeps only a hash of it, and the list shows it as <code>${keyDisplay(state.created.key)}</code>.`,
          })
        : ""
    }
${notice ? message("notice", notice) : ""}
<p>Each key reaches this workspace only: <code>svc_live_…</code> keys its production data, <code>svc_test_…</code> keys its sandbox. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
${table({
  caption: "Keys of this workspace, newest first",
  columns: [
    "Name",
    "Key",
    "Environment",
    "Scopes",
    "Expires",
    "Last used",
    "Created by",
    "Status",
    ...(admin ? ["Action"] : []),
  ],
  rows,
  empty: "This workspace has no API keys yet.",
})}
${admin ? createForm(ctx, state) : html`<p class="hint">Only owners and admins of the workspace can create or revoke keys. Your role is ${ctx.role}.</p>`}`,
  });
}

function createForm(ctx: WorkspaceContext, state: KeysPageState): Html {
  const values = state.created ? undefined : state.form;
  const errorOf = (field: string) => (state.error?.field === field ? state.error.message : undefined);
  const chosenScopes = values ? values.getAll("scopes") : ["*"];
  const environment = values?.get("environment") ?? "live";
  const expires = values?.get("expires") ?? "none";
  return html`<section aria-labelledby="create-key-heading" class="panel">
<h2 id="create-key-heading">Create a key</h2>
${state.error ? message("error", html`The key was not created: ${state.error.message}`) : ""}
<form method="post" action="${ctx.base}/keys" class="stack">
${csrfField(ctx.visitor.csrf)}
<div class="field">
<label for="key-name">Name</label>
<input id="key-name" name="name" type="text" required maxlength="100" value="${values?.get("name") ?? ""}"${describedBy("key-name", errorOf("name"), true)}>
<p class="hint" id="key-name-hint">What the key is for, e.g. “CI deploys” or “Billing dashboard”.</p>
${fieldError("key-name", errorOf("name"))}
</div>
<fieldset${describedBy("environment", errorOf("environment"))}>
<legend>Environment</legend>
<div class="choice"><input type="radio" id="env-live" name="environment" value="live"${environment === "live" ? html` checked` : ""}> <label for="env-live">Live: production data (<code>svc_live_…</code>)</label></div>
<div class="choice"><input type="radio" id="env-test" name="environment" value="test"${environment === "test" ? html` checked` : ""}> <label for="env-test">Test: sandbox, no real charges (<code>svc_test_…</code>)</label></div>
${fieldError("environment", errorOf("environment"))}
</fieldset>
<fieldset${describedBy("scopes", errorOf("scopes"), true)}>
<legend>Scopes</legend>
<p class="hint" id="scopes-hint">Full access is the default. For a narrower key, untick it and choose the scopes it needs.</p>
${["*" as const, ...scopes.filter((scope) => scope !== "*")].map((scope, index) => {
  const id = `scope-${index}`;
  return html`<div class="choice"><input type="checkbox" id="${id}" name="scopes" value="${scope}"${chosenScopes.includes(scope) ? html` checked` : ""}> <label for="${id}"><code>${scope}</code> ${SCOPE_DESCRIPTIONS[scope]}</label></div>`;
})}
${fieldError("scopes", errorOf("scopes"))}
</fieldset>
<div class="field">
<label for="key-expires">Expires after</label>
<select id="key-expires" name="expires"${describedBy("key-expires", errorOf("expires"))}>
${expiryChoices.map((choice) => html`<option value="${choice}"${choice === expires ? html` selected` : ""}>${EXPIRY_LABELS[choice]}</option>`)}
</select>
${fieldError("key-expires", errorOf("expires"))}
</div>
<div class="actions"><button type="submit" class="primary">Create key</button></div>
</form>
</section>`;
}

const FIELD_OF_PARAM: Record<string, string> = {
  name: "name",
  environment: "environment",
  scopes: "scopes",
  expires_at: "expires",
  expires: "expires",
};

async function createKey(ctx: WorkspaceContext, _params: string[], form: URLSearchParams): Promise<void> {
  const expires = form.get("expires") ?? "none";
  try {
    if (!(expiryChoices as readonly string[]).includes(expires))
      throw new InvalidInputError("choose an expiry from the list", "expires");
    const created = await ctx.deps.db.transaction(async (tx) => {
      const made = await createApiKey(tx, {
        workspaceId: ctx.workspace.id,
        name: form.get("name") ?? "",
        environment: (form.get("environment") ?? "") as Environment,
        scopes: form.getAll("scopes"),
        expires: expires as ExpiryChoice,
        createdBy: ctx.user.id,
      });
      await recordAction(tx, ctx, "api_key.created", made.key.id, 200);
      return made;
    });
    // The secret is in this answer only (no redirect: it is never stored or put in a URL); the
    // page is not cached (sendPage's no-store), so Back or a reload does not show it again.
    await keysPage(ctx, { status: 200, created });
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    await keysPage(ctx, {
      status: 400,
      form,
      error: { field: FIELD_OF_PARAM[error.param ?? ""] ?? "name", message: sentence(error.message) },
    });
  }
}

async function workspaceKey(ctx: WorkspaceContext, keyId: string): Promise<ApiKeyRecord | undefined> {
  return (await listApiKeys(ctx.deps.db, ctx.workspace.id)).find((key) => key.id === keyId);
}

async function confirmRevoke(ctx: WorkspaceContext, [keyId]: string[]): Promise<void> {
  const key = await workspaceKey(ctx, keyId!);
  if (!key)
    return sendErrorPage(ctx, 404, "There is no such key in this workspace.", {
      back: { href: `${ctx.base}/keys`, label: "Back to API keys" },
    });
  if (!administers(ctx.role)) {
    return sendErrorPage(ctx, 403, `Only a workspace owner or admin can revoke API keys. Your role is ${ctx.role}.`, {
      back: { href: `${ctx.base}/keys`, label: "Back to API keys" },
    });
  }
  sendConsolePage(ctx, 200, {
    title: "Revoke key",
    heading: `Revoke key “${key.name}”?`,
    section: "keys",
    body: html`<p>Requests made with <code>${keyDisplay(key)}</code> (${key.environment}, ${scopeSummary(key.scopes)}) will be refused at once. This cannot be undone: to restore access, create a new key.</p>
${confirmForm({ action: `${ctx.base}/keys/${key.id}/revoke`, csrf: ctx.visitor.csrf, button: "Revoke key", cancel: `${ctx.base}/keys` })}`,
  });
}

async function revokeKey(ctx: WorkspaceContext, [keyId]: string[]): Promise<void> {
  const key = await workspaceKey(ctx, keyId!);
  if (!key)
    return sendErrorPage(ctx, 404, "There is no such key in this workspace; nothing was changed.", {
      back: { href: `${ctx.base}/keys`, label: "Back to API keys" },
    });
  if (key.revokedAt) return redirect(ctx.response, `${ctx.base}/keys?notice=already-revoked`);
  await ctx.deps.db.transaction(async (tx) => {
    await revokeApiKey(tx, key.id, new Date(), ctx.workspace.id);
    await recordAction(tx, ctx, "api_key.revoked", key.id, 303);
  });
  redirect(ctx.response, `${ctx.base}/keys?notice=revoked`);
}

export const keyRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/keys$/, handle: (ctx) => keysPage(ctx, { status: 200 }) },
  { method: "POST", path: /^\/keys$/, admin: "create API keys", handle: createKey },
  { method: "GET", path: /^\/keys\/(key_[A-Za-z0-9]{1,64})\/revoke$/, handle: confirmRevoke },
  { method: "POST", path: /^\/keys\/(key_[A-Za-z0-9]{1,64})\/revoke$/, admin: "revoke API keys", handle: revokeKey },
];
