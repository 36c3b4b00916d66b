// The workspace settings console: server-rendered pages under /settings on the API's origin, for
// the people of a workspace (API keys, projects and their versions, webhooks, audit log, usage,
// connected apps, members).
//
// - Works without JavaScript; the one script only adds a Copy button to secrets shown once. Every
//   page has the strict CSP of src/pages/respond.ts: the stylesheet and script are files served here.
// - One router (below) does what every page needs, in this order: the session (src/pages/visitor.ts),
//   membership of the workspace in the path (404 otherwise), and for a post: the form read within
//   its limits, the CSRF token, and the role for administrative actions. A refused post changes
//   nothing and leaves a `console.refused` row in the audit log.
// - Handlers (one module per page group) are thin: the rules are in src/domain, whose errors become
//   pages here with the status the one error table gives them (src/http/errors.ts); anything else
//   propagates to src/app.ts (500, logged).
import type { IncomingMessage, ServerResponse } from "node:http";
import { administers, membershipBySlug } from "../domain/members.ts";
import { newId } from "../storage/ids.ts";
import { FormError, readForm } from "../pages/forms.ts";
import { signInPath } from "../pages/redirect.ts";
import { redirect } from "../pages/respond.ts";
import { requireCsrf } from "../pages/csrf.ts";
import { visitor } from "../pages/visitor.ts";
import {
  recordRefusal,
  sendErrorPage,
  withWorkspace,
  type ConsoleDeps,
  type ConsoleContext,
  type SignedInContext,
} from "./context.ts";
import type { AccountRoute, WorkspaceRoute } from "./routes.ts";
import { CursorError } from "../http/cursor.ts";
import { domainFailure } from "../http/errors.ts";
import { DAMAGED_LINK } from "./cursor.ts";
import { sentence } from "./layout.ts";
import { appRoutes } from "./apps.ts";
import { auditRoutes } from "./audit.ts";
import { keyRoutes } from "./keys.ts";
import { memberRoutes } from "./members.ts";
import { projectRoutes } from "./projects.ts";
import { accountRoutes } from "./sign-in.ts";
import { usageRoutes } from "./usage.ts";
import { webhookRoutes } from "./webhooks/index.ts";

const WORKSPACE_PATH = /^\/settings\/w\/([a-z0-9][a-z0-9-]{0,63})(\/.*)?$/;

export function createConsole(
  deps: ConsoleDeps,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const workspaceRoutes: WorkspaceRoute[] = [
    ...keyRoutes,
    ...projectRoutes,
    ...webhookRoutes,
    ...auditRoutes,
    ...usageRoutes,
    ...appRoutes,
    ...memberRoutes,
  ];
  const accountRoutesList: AccountRoute[] = accountRoutes;

  return async function handle(request, response) {
    const target = request.url?.startsWith("/") ? request.url : "/";
    // Parsed against the console's origin: a target such as `//evil.example/x` stays a path here.
    const url = new URL(deps.pages.origin + target);
    const method = request.method === "HEAD" ? "GET" : (request.method ?? "GET");
    let path = url.pathname;
    if (path.length > "/settings".length && path.endsWith("/")) path = path.replace(/\/+$/, "");

    const requestId = newId("req");
    response.setHeader("X-Request-Id", requestId);
    const ctx: ConsoleContext = {
      deps,
      request,
      response,
      url,
      method,
      requestId,
      ip: deps.pages.clientAddress(request),
      userAgent: request.headers["user-agent"] ?? null,
      visitor: await visitor(deps.pages, request, response),
    };

    try {
      const inWorkspace = WORKSPACE_PATH.exec(path);
      if (inWorkspace) return await handleWorkspace(ctx, workspaceRoutes, inWorkspace[1]!, inWorkspace[2] ?? "");
      const [route, params, allowed] = match(accountRoutesList, method, path);
      if (!route) return notFoundOrNotAllowed(ctx, allowed);
      if (route.access === "signed-in" && !ctx.visitor.user) {
        // Nothing to do signed out: a post (sign-out after the session ended) changes nothing.
        return redirect(response, method === "GET" ? signInPath(`${url.pathname}${url.search}`) : "/settings/sign-in");
      }
      const form = method === "POST" ? await readCheckedForm(ctx, null) : new URLSearchParams();
      if (!form) return;
      await route.handle(ctx, params, form);
    } catch (error) {
      if (!(await answerError(ctx, error))) throw error;
    }
  };
}

async function handleWorkspace(
  ctx: ConsoleContext,
  routes: WorkspaceRoute[],
  slug: string,
  rest: string,
): Promise<void> {
  const user = ctx.visitor.user;
  if (!user) {
    // Signed out (or the session ended): sign in first; a post is not carried out.
    return redirect(
      ctx.response,
      signInPath(ctx.method === "GET" ? `${ctx.url.pathname}${ctx.url.search}` : `/settings/w/${slug}`),
    );
  }
  const userCtx: SignedInContext = { ...ctx, user };
  const membership = await membershipBySlug(ctx.deps.db, user.id, slug);
  if (!membership) {
    if (ctx.method === "POST") await recordRefusal(ctx, 404, null);
    return sendErrorPage(userCtx, 404, "There is no such workspace, or you are not a member of it.");
  }
  const wsCtx = withWorkspace(userCtx, membership.workspace, membership.role);
  if (rest === "") return redirect(ctx.response, `${wsCtx.base}/keys`);
  const [route, params, allowed] = match(routes, ctx.method, rest);
  if (!route) return notFoundOrNotAllowed(wsCtx, allowed);
  let form = new URLSearchParams();
  if (ctx.method === "POST") {
    const checked = await readCheckedForm(wsCtx, wsCtx.workspace.id);
    if (!checked) return;
    form = checked;
    if (route.admin && !administers(wsCtx.role)) {
      await recordRefusal(wsCtx, 403, wsCtx.workspace.id);
      return sendErrorPage(
        wsCtx,
        403,
        `Only a workspace owner or admin can ${route.admin}. Your role is ${wsCtx.role}; nothing was changed.`,
      );
    }
  }
  try {
    await route.handle(wsCtx, params, form);
  } catch (error) {
    if (ctx.method === "POST" && domainFailure(error)?.code === "forbidden")
      await recordRefusal(wsCtx, 403, wsCtx.workspace.id);
    // Answered here, so the error page keeps the workspace's nav.
    if (!(await answerError(wsCtx, error))) throw error;
  }
}

/** The posted form, within its limits and with this browser's CSRF token; undefined when refused (the error page is sent). */
async function readCheckedForm(ctx: ConsoleContext, workspaceId: string | null): Promise<URLSearchParams | undefined> {
  try {
    const form = await readForm(ctx.request);
    requireCsrf(ctx.deps.pages, ctx.request, ctx.visitor, form);
    return form;
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    await recordRefusal(ctx, error.status, workspaceId);
    sendErrorPage(ctx, error.status, error.message, {
      title: error.status === 413 ? "The form is too large" : "The form was refused",
    });
    return undefined;
  }
}

function match<R extends { method: string; path: RegExp }>(
  routes: readonly R[],
  method: string,
  path: string,
): [R | undefined, string[], string[]] {
  const allowed: string[] = [];
  for (const route of routes) {
    const found = route.path.exec(path);
    if (!found) continue;
    const params = found.slice(1).map((part) => decoded(part ?? ""));
    if (params.includes(undefined)) continue;
    if (route.method === method) return [route, params as string[], []];
    allowed.push(route.method);
  }
  return [undefined, [], allowed];
}

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined; // a malformed escape: no page has it
  }
}

function notFoundOrNotAllowed(ctx: ConsoleContext, allowed: string[]): void {
  if (allowed.length === 0) return sendErrorPage(ctx, 404, "There is no page at this address.");
  ctx.response.setHeader(
    "Allow",
    [...new Set(allowed.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])))].join(", "),
  );
  sendErrorPage(ctx, 405, `This address does not answer ${ctx.method}.`);
}

/** Answers the domain's errors as pages; false for anything else (it propagates: 500, logged). */
async function answerError(ctx: ConsoleContext, error: unknown): Promise<boolean> {
  if (ctx.response.headersSent) return false;
  const failure = domainFailure(error);
  if (failure) {
    for (const [name, value] of Object.entries(failure.headers)) ctx.response.setHeader(name, value);
    const unchanged = failure.code === "forbidden" ? " Nothing was changed." : "";
    sendErrorPage(ctx, failure.status, `${sentence(failure.message)}${unchanged}`);
  } else if (error instanceof CursorError) sendErrorPage(ctx, 400, DAMAGED_LINK);
  else if (error instanceof FormError) sendErrorPage(ctx, error.status, error.message);
  else return false;
  return true;
}
