// What a console handler is given: the request, who is at the browser, and (on workspace pages)
// the workspace and their role in it; and the helpers that answer pages and record actions.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { recordAdminAction, type AdminAction } from "../domain/audit-log.ts";
import { grants } from "../domain/keys.ts";
import { roleScopes, type MemberRole } from "../domain/members.ts";
import type { DiffFiles } from "../domain/file-diff.ts";
import type { WebhookTargets } from "../domain/webhook-targets.ts";
import type { CursorCodec } from "../http/cursor.ts";
import type { Database, Queryable } from "../storage/index.ts";
import type { User, Workspace } from "../storage/schema.ts";
import type { Html } from "../html/template.ts";
import { html } from "../html/template.ts";
import { sendPage } from "../pages/respond.ts";
import type { PageDeps } from "../pages/deps.ts";
import type { Visitor } from "../pages/visitor.ts";
import { message, shell, workspaceBase, type SectionId } from "./layout.ts";

export interface ConsoleDeps {
  readonly pages: PageDeps;
  readonly db: Database;
  readonly logger: Logger;
  readonly webhookTargets: WebhookTargets;
  /** The API's cursor codec: the console's page links are cursors too. */
  readonly cursors: CursorCodec;
  /** Works out a version diff's patches in a thread (the API's own). */
  readonly diffFiles: DiffFiles;
}

/** A console request as its handler sees it (the API's handlers have theirs: Context, src/http/request-context.ts). */
export interface ConsoleContext {
  readonly deps: ConsoleDeps;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** The request's URL, resolved against the console's origin. */
  readonly url: URL;
  readonly method: string;
  readonly requestId: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly visitor: Visitor;
}

export interface SignedInContext extends ConsoleContext {
  readonly user: User;
}

export interface WorkspaceContext extends SignedInContext {
  readonly workspace: Workspace;
  readonly role: MemberRole;
  /** `/settings/w/<slug>`. */
  readonly base: string;
}

export function withWorkspace(ctx: SignedInContext, workspace: Workspace, role: MemberRole): WorkspaceContext {
  return { ...ctx, workspace, role, base: workspaceBase(workspace) };
}

/** The console request that carried out an action, as the audit log records it. */
export function requestFacts(ctx: ConsoleContext, status: number) {
  return {
    requestId: ctx.requestId,
    method: ctx.method,
    path: ctx.url.pathname,
    status,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
}

/** Records an administrative action of the signed-in member; pass the transaction that made the change. */
export async function recordAction(
  db: Queryable,
  ctx: WorkspaceContext,
  action: AdminAction,
  target: string | null,
  status: number,
): Promise<void> {
  await recordAdminAction(db, {
    workspaceId: ctx.workspace.id,
    action,
    actor: ctx.user.id,
    target,
    request: requestFacts(ctx, status),
  });
}

/** Records a refused post (forged CSRF, oversize form, a member calling an admin action): nothing else was done. */
export async function recordRefusal(ctx: ConsoleContext, status: number, workspaceId: string | null): Promise<void> {
  await recordAdminAction(ctx.deps.db, {
    workspaceId,
    action: "console.refused",
    actor: ctx.visitor.user?.id ?? "anonymous",
    target: ctx.url.pathname,
    request: requestFacts(ctx, status),
  });
}

export interface PageParts {
  readonly title: string;
  readonly heading?: string;
  readonly body: Html;
  /** The workspace section this page belongs to (workspace pages only). */
  readonly section?: SectionId;
}

/** Answers a page in the console's shell: with the header of the signed-in person, and the workspace nav on workspace pages. */
export function sendConsolePage(ctx: ConsoleContext, status: number, parts: PageParts): void {
  const ws = "workspace" in ctx ? (ctx as WorkspaceContext) : undefined;
  sendPage(
    ctx.response,
    status,
    shell({
      title: parts.title,
      ...(parts.heading ? { heading: parts.heading } : {}),
      ...(ctx.visitor.user ? { user: ctx.visitor.user } : {}),
      csrf: ctx.visitor.csrf,
      ...(ws
        ? {
            workspace: {
              workspace: ws.workspace,
              role: ws.role,
              sections: visibleSections(ws.role),
              ...(parts.section ? { current: parts.section } : {}),
            },
          }
        : {}),
      body: parts.body,
    }),
  );
}

/** Whether the role may read usage and invoices: what it may do through the API (`billing:read`) it may see here. */
export function readsBilling(role: MemberRole): boolean {
  return grants({ scopes: [...roleScopes(role)] }, "billing:read");
}

/** Sections a role sees in the nav: usage and invoices only for those who may read billing. */
export function visibleSections(role: MemberRole): SectionId[] {
  const all: SectionId[] = ["keys", "projects", "webhooks", "audit", "usage", "apps", "members"];
  return readsBilling(role) ? all : all.filter((section) => section !== "usage");
}

const TITLES: Record<number, string> = {
  400: "The request could not be used",
  401: "Sign-in needed",
  403: "Not allowed",
  404: "Page not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Too large",
  415: "Unsupported form",
  429: "Too many attempts",
};

/** An error page: the status, a title, what happened, and the way back. Never a stack trace. */
export function sendErrorPage(
  ctx: ConsoleContext,
  status: number,
  text: string,
  options: { title?: string; back?: { href: string; label: string } } = {},
): void {
  const back =
    options.back ??
    ("base" in ctx
      ? { href: `${(ctx as WorkspaceContext).base}/keys`, label: "Back to the workspace" }
      : { href: "/settings", label: "Back to settings" });
  sendConsolePage(ctx, status, {
    title: options.title ?? TITLES[status] ?? "Something is wrong",
    body: html`${message("error", text)}<p><a href="${back.href}">${back.label}</a></p>`,
  });
}
