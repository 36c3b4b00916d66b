// The pages of the authorization endpoint: the workspace chooser, the consent page and the error
// page. Server-rendered like the settings console, in the same document, but with nothing around
// the body: a person consenting sees the application, the workspace and the access, nothing else.
import { SCOPE_DESCRIPTIONS, scopes, type Scope } from "../domain/keys.ts";
import type { Membership } from "../domain/members.ts";
import type { User, Workspace } from "../storage/schema.ts";
import { csrfField } from "../pages/csrf.ts";
import { html, type Html } from "../html/template.ts";
import { pageDocument } from "../pages/shell.ts";

const NAMED_SCOPES = scopes.filter((scope) => scope !== "*");

function scopeItems(granted: readonly string[]): Html {
  if (granted.includes("*")) {
    const [full, rest] = SCOPE_DESCRIPTIONS["*"].split(": ");
    return html`<li><strong>${full}</strong>: ${rest}</li>${NAMED_SCOPES.map(scopeItem)}`;
  }
  return html`${NAMED_SCOPES.filter((scope) => granted.includes(scope)).map(scopeItem)}`;
}

function scopeItem(scope: Scope): Html {
  return html`<li>${SCOPE_DESCRIPTIONS[scope]} <code class="meta">${scope}</code></li>`;
}

/** The request's parameters, carried by the chooser's and consent page's forms. */
export type CarriedParameters = ReadonlyArray<readonly [string, string]>;

function hidden(parameters: CarriedParameters): Html {
  return html`${parameters.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** The page around each body: the service's name and who is signed in, nothing to navigate to. */
function shell(options: { title: string; heading: string; user?: User | undefined; body: Html }): Html {
  return pageDocument({
    title: options.title,
    site: "Project Builder",
    heading: options.heading,
    mainClass: "consent",
    masthead: html`<p class="brand">Project Builder</p>
${options.user ? html`<div class="whoami"><span class="email">Signed in as ${options.user.email}</span></div>` : ""}`,
    body: options.body,
  });
}

/** Where the browser goes after the choice, as a person recognises it: the host, or the scheme of an app. */
export function destination(redirectUri: string): string {
  const uri = new URL(redirectUri);
  return uri.host || `${uri.protocol} (an app on this device)`;
}

function denyForm(options: { csrf: string; parameters: CarriedParameters; label: string; primary?: boolean }): Html {
  return html`<form method="post" action="/oauth/authorize" class="actions">
${csrfField(options.csrf)}${hidden(options.parameters)}
<button type="submit" name="decision" value="deny"${options.primary ? html` class="primary"` : ""}>${options.label}</button>
</form>`;
}

/** The workspace as a person recognises it: its name, and its slug when that differs. */
function workspaceLabel(workspace: Workspace, role: string): Html {
  return html`<strong>${workspace.name}</strong> <span class="meta">(${workspace.slug !== workspace.name ? `${workspace.slug}, ` : ""}your role: ${role})</span>`;
}

/**
 * An error page: `request` when the request cannot be trusted (unknown client or redirect URI: no
 * redirect), `form` when the consent form itself was refused (expired, from another site).
 */
export function errorPage(reason: string, kind: "request" | "form" = "request"): Html {
  return shell({
    title: "Authorization failed",
    heading: kind === "request" ? "This authorization request cannot be used" : "Your answer was not accepted",
    body: html`<div class="message error" role="alert"><p>${reason}</p></div>
${
  kind === "request"
    ? html`<p>Nothing was shared, and you were not sent back to the application: it did not identify itself, or it asked to send you to an address that is not registered for it.</p>
<p>If you followed a link or button in an application, let its developers know. You can close this page.</p>`
    : html`<p>Nothing was shared with the application. Go back to it and start the authorization again.</p>`
}
<p><a href="/settings">Go to your workspace settings</a></p>`,
  });
}

export function chooserPage(options: {
  user: User;
  csrf: string;
  clientName: string;
  memberships: readonly Membership[];
  parameters: CarriedParameters;
  redirectUri: string;
  notice?: string | undefined;
}): Html {
  const { clientName } = options;
  return shell({
    title: `Authorize ${clientName}`,
    heading: `Choose a workspace for ${clientName}`,
    user: options.user,
    body: html`${options.notice ? html`<div class="message error" role="alert"><p>${options.notice}</p></div>` : ""}
<p><strong>${clientName}</strong> will be able to act in the one workspace you choose. You will see what it asks for next.</p>
<form method="get" action="/oauth/authorize" class="stack">
${hidden(options.parameters)}
<fieldset>
<legend>Workspace</legend>
${options.memberships.map(
  ({ workspace, role }, index) => html`<div class="choice">
<input type="radio" id="workspace-${index}" name="workspace" value="${workspace.slug}" required${index === 0 ? html` checked` : ""}>
<label for="workspace-${index}">${workspace.name} <span class="meta">${workspace.slug !== workspace.name ? `${workspace.slug} · ` : ""}your role: ${role}</span></label>
</div>`,
)}
</fieldset>
<p class="hint">To give no access, cancel: you will be sent back to ${destination(options.redirectUri)}.</p>
<div class="actions">
<button type="submit" class="primary">Continue</button>
<button type="submit" form="deny" name="decision" value="deny">Cancel</button>
</div>
</form>
<form method="post" action="/oauth/authorize" id="deny">${csrfField(options.csrf)}${hidden(options.parameters)}</form>`,
  });
}

export function noWorkspacePage(options: {
  user: User;
  csrf: string;
  clientName: string;
  parameters: CarriedParameters;
  redirectUri: string;
}): Html {
  return shell({
    title: `Authorize ${options.clientName}`,
    heading: `${options.clientName} cannot be authorized`,
    user: options.user,
    body: html`<div class="message error" role="alert"><p>You are not a member of any workspace, so there is nothing you can give ${options.clientName} access to.</p></div>
<p>Ask a workspace owner or admin to add you, then try again from the application.</p>
<p class="hint">You will be sent back to ${destination(options.redirectUri)} without access.</p>
${denyForm({ csrf: options.csrf, parameters: options.parameters, label: `Return to ${options.clientName}`, primary: true })}`,
  });
}

export function consentPage(options: {
  user: User;
  csrf: string;
  clientName: string;
  workspace: Workspace;
  role: string;
  /** What the member can and will grant. */
  granted: readonly string[];
  /** What was asked for but the member's role does not allow. */
  withheld: readonly string[];
  parameters: CarriedParameters;
  redirectUri: string;
  /** Where to choose another workspace; absent when the member has only one. */
  chooseAnother?: string | undefined;
}): Html {
  const { clientName, workspace } = options;
  const anything = options.granted.length > 0;
  return shell({
    title: `Authorize ${clientName}`,
    heading: anything
      ? `Allow ${clientName} to access ${workspace.name}?`
      : `${clientName} asks for more than your role allows`,
    user: options.user,
    body: html`<p><strong>${clientName}</strong> asks to use the workspace ${workspaceLabel(workspace, options.role)} on your behalf.${
      options.chooseAnother ? html` <a href="${options.chooseAnother}">Choose another workspace</a>` : ""
    }</p>
${
  anything
    ? html`<section aria-labelledby="granted-heading">
<h2 id="granted-heading">If you allow it, ${clientName} will be able to</h2>
<ul class="scopes">${scopeItems(options.granted)}</ul>
</section>`
    : html`<div class="message error" role="alert"><p>Your role in ${workspace.name} does not allow any of the access ${clientName} asks for.</p></div>`
}
${
  options.withheld.length > 0
    ? html`<section aria-labelledby="withheld-heading">
<h2 id="withheld-heading">It asked for, but will not get</h2>
<ul class="scopes withheld">${scopeItems(options.withheld)}</ul>
<p class="hint">A member with the role ${options.role} cannot give more access than they have.</p>
</section>`
    : ""
}
<p class="hint">Live data only: ${clientName} never sees the workspace's test data. You can revoke its access at any time in the workspace's settings, under Connected apps.</p>
<p class="hint">${anything ? "Either way, you" : "You"} will be sent back to ${destination(options.redirectUri)}.</p>
<form method="post" action="/oauth/authorize" class="actions">
${csrfField(options.csrf)}${hidden(options.parameters)}
<input type="hidden" name="workspace" value="${workspace.slug}">
${anything ? html`<button type="submit" name="decision" value="allow" class="primary">Allow access</button>` : ""}
<button type="submit" name="decision" value="deny"${anything ? "" : html` class="primary"`}>${anything ? "Deny" : `Return to ${clientName}`}</button>
</form>`,
  });
}
