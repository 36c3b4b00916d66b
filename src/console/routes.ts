// The console's routes: what each page module exports, and the router in index.ts matches.
import type { ConsoleContext, WorkspaceContext } from "./context.ts";

/** A page or action outside any workspace (sign-in, the workspace chooser). */
export interface AccountRoute {
  readonly method: "GET" | "POST";
  readonly path: RegExp;
  /** `public`: answered signed out too (the handler sees `ctx.visitor.user`). */
  readonly access: "public" | "signed-in";
  handle(ctx: ConsoleContext, params: string[], form: URLSearchParams): Promise<void>;
}

/** A page or action of one workspace: `path` matches what follows `/settings/w/<slug>`. */
export interface WorkspaceRoute {
  readonly method: "GET" | "POST";
  readonly path: RegExp;
  /** Set on administrative actions: what a member is refused, as in "Only a workspace owner or admin can <admin>." */
  readonly admin?: string;
  handle(ctx: WorkspaceContext, params: string[], form: URLSearchParams): Promise<void>;
}
