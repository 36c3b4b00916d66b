// Who is at the browser: the signed-in user (from the session cookie), and the CSRF token their
// forms must carry. Shared by the settings console and the OAuth consent page.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { User } from "../storage/schema.ts";
import { findSession } from "../domain/sessions.ts";
import { csrfToken } from "./csrf.ts";
import type { PageDeps } from "./deps.ts";
import { PRE_SESSION_COOKIE, SESSION_COOKIE } from "./sessions.ts";

export interface Visitor {
  readonly user: User | undefined;
  /** The value every form posts as `csrf_token`. */
  readonly csrf: string;
  /** What the token is bound to: the session, or the pre-session cookie. */
  readonly csrfBinding: string;
}

/** Reads the session (if any) and makes sure the browser has something its CSRF token binds to. */
export async function visitor(deps: PageDeps, request: IncomingMessage, response: ServerResponse): Promise<Visitor> {
  const token = deps.cookies.read(request, SESSION_COOKIE);
  const session = token ? await findSession(deps.db, token) : undefined;
  if (session) {
    deps.sessions?.signedIn(request, token!);
    return withCsrf(deps, session.user, `session:${session.idHash}`);
  }
  if (token) {
    // Expired or signed out elsewhere: the browser stops sending it (each is a lookup, and counts
    // against its address).
    deps.sessions?.unknownSession(request);
    deps.cookies.write(response, SESSION_COOKIE, "", 0);
  }
  let pre = deps.cookies.read(request, PRE_SESSION_COOKIE);
  if (!pre || !/^[A-Za-z0-9_-]{43}$/.test(pre)) {
    pre = randomBytes(32).toString("base64url");
    deps.cookies.write(response, PRE_SESSION_COOKIE, pre);
  }
  return withCsrf(deps, undefined, `pre:${pre}`);
}

function withCsrf(deps: PageDeps, user: User | undefined, binding: string): Visitor {
  return { user, csrf: csrfToken(deps.csrfSecret, binding), csrfBinding: binding };
}
