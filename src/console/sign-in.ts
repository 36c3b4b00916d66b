// Signing in and out, and the workspace chooser at /settings.
import { membershipsOf } from "../domain/members.ts";
import { signIn } from "../domain/sessions.ts";
import { html } from "../html/template.ts";
import { redirect } from "../pages/respond.ts";
import { safeNext } from "../pages/redirect.ts";
import { endSession, startSession } from "../pages/sessions.ts";
import { sendConsolePage, type ConsoleContext } from "./context.ts";
import type { AccountRoute } from "./routes.ts";
import { message, waitInWords, workspaceBase } from "./layout.ts";
import { csrfField } from "../pages/csrf.ts";

function signInPage(
  ctx: ConsoleContext,
  status: number,
  options: { next: string; email?: string; error?: string },
): void {
  sendConsolePage(ctx, status, {
    title: "Sign in",
    heading: "Sign in to workspace settings",
    body: html`${options.error ? message("error", options.error) : ""}
<form method="post" action="/settings/sign-in" class="stack narrow">
${csrfField(ctx.visitor.csrf)}
<input type="hidden" name="next" value="${options.next}">
<div class="field">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${options.email ?? ""}"${options.error ? html` aria-describedby="sign-in-error-text"` : ""}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
</div>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="hint">Accounts are created by a workspace owner or admin (Members), or by the operator with <code>pbs</code>.</p>`,
  });
}

async function signInForm(ctx: ConsoleContext): Promise<void> {
  const next = safeNext(ctx.url.searchParams.get("next"));
  if (ctx.visitor.user) return redirect(ctx.response, next);
  signInPage(ctx, 200, { next });
}

async function signInPost(ctx: ConsoleContext, _params: string[], form: URLSearchParams): Promise<void> {
  const next = safeNext(form.get("next"));
  const email = form.get("email") ?? "";
  const result = await signIn(ctx.deps.db, { email, password: form.get("password") ?? "", ip: ctx.ip });
  if (result.outcome === "throttled") {
    ctx.response.setHeader("Retry-After", String(result.retryAfterSeconds));
    return signInPage(ctx, 429, {
      next,
      email,
      error: `Too many failed sign-ins. Wait ${waitInWords(result.retryAfterSeconds)}, then try again.`,
    });
  }
  if (result.outcome === "invalid")
    return signInPage(ctx, 401, { next, email, error: "The email address or password is incorrect." });
  await startSession(ctx.deps.pages, ctx.response, result.user.id);
  redirect(ctx.response, next);
}

async function signOutPost(ctx: ConsoleContext): Promise<void> {
  await endSession(ctx.deps.pages, ctx.request, ctx.response);
  redirect(ctx.response, "/settings/sign-in");
}

async function chooser(ctx: ConsoleContext): Promise<void> {
  const user = ctx.visitor.user!;
  const memberships = await membershipsOf(ctx.deps.db, user.id);
  if (memberships.length === 1) return redirect(ctx.response, `${workspaceBase(memberships[0]!.workspace)}/keys`);
  sendConsolePage(ctx, 200, {
    title: "Workspaces",
    heading: "Choose a workspace",
    body:
      memberships.length === 0
        ? html`<p>You are not a member of any workspace. Ask a workspace owner or admin to add you.</p>`
        : html`<ul class="choices">${memberships.map(
            ({ workspace, role }) =>
              html`<li><a href="${workspaceBase(workspace)}/keys">${workspace.name}</a> <span class="meta">${workspace.slug} · ${role}</span></li>`,
          )}</ul>`,
  });
}

export const accountRoutes: AccountRoute[] = [
  { method: "GET", path: /^\/settings\/sign-in$/, access: "public", handle: signInForm },
  { method: "POST", path: /^\/settings\/sign-in$/, access: "public", handle: signInPost },
  { method: "POST", path: /^\/settings\/sign-out$/, access: "signed-in", handle: signOutPost },
  { method: "GET", path: /^\/settings$/, access: "signed-in", handle: chooser },
];
