// Who is at the browser: the signed-in user (from the session cookie), and the CSRF token their
// forms must carry. Shared by the settings console and the OAuth consent page.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Queryable } from "../storage/index.ts";
import type { User } from "../storage/schema.ts";
import { findSession, openSession, SESSION_LIFETIME_MS, signOut } from "../domain/sessions.ts";
import { cookieJar, type CookieJar } from "./cookies.ts";
import { CSRF_FIELD, csrfToken, sameOrigin, validCsrfToken } from "./csrf.ts";
import { FormError } from "./forms.ts";
import type { SessionSightings } from "./page-limit.ts";

export const SESSION_COOKIE = "pb_session";
/** A random value identifying a browser before it signs in, to bind the sign-in form's CSRF token. */
export const PRE_SESSION_COOKIE = "pb_pre";

export interface WebDeps {
  readonly db: Queryable;
  /** Where the console is reached, e.g. `https://api.example.com` (no trailing slash). */
  readonly origin: string;
  /** Signs CSRF tokens; shared by every replica. */
  readonly csrfSecret: string;
  readonly cookies: CookieJar;
  /** The client's address as TRUST_PROXY says to read it (src/http/client-address.ts). */
  readonly clientAddress: (request: IncomingMessage) => string | null;
  /** Told what each request's session cookie turned out to be (the pages' per-address limit). */
  readonly sessions?: SessionSightings;
}

export function webDeps(
  db: Queryable,
  publicUrl: string,
  csrfSecret: string,
  clientAddress: WebDeps["clientAddress"],
  sessions?: SessionSightings,
): WebDeps {
  const origin = new URL(publicUrl).origin;
  return { db, origin, csrfSecret, cookies: cookieJar(origin.startsWith("https:")), clientAddress, ...(sessions ? { sessions } : {}) };
}

export interface Visitor {
  readonly user: User | undefined;
  /** The value every form posts as `csrf_token`. */
  readonly csrf: string;
  /** What the token is bound to: the session, or the pre-session cookie. */
  readonly csrfBinding: string;
}

/** Reads the session (if any) and makes sure the browser has something its CSRF token binds to. */
export async function visitor(deps: WebDeps, request: IncomingMessage, response: ServerResponse): Promise<Visitor> {
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

function withCsrf(deps: WebDeps, user: User | undefined, binding: string): Visitor {
  return { user, csrf: csrfToken(deps.csrfSecret, binding), csrfBinding: binding };
}

/** Refuses a post whose CSRF token or Origin is not this browser's and this console's. */
export function requireCsrf(deps: WebDeps, request: IncomingMessage, visitor: Visitor, form: URLSearchParams): void {
  if (!sameOrigin(request.headers.origin, deps.origin)) {
    throw new FormError(
      `This form was sent from ${request.headers.origin}, not from ${deps.origin} where this server is reached (PUBLIC_URL); it was refused and nothing was changed.`,
      400,
    );
  }
  if (!validCsrfToken(deps.csrfSecret, visitor.csrfBinding, form.get(CSRF_FIELD))) {
    throw new FormError("This form has expired or was not sent from this page; reload the page and try again. Nothing was changed.", 400);
  }
}

/** Signs the browser in: a new session (never one it brought: no fixation) in a fresh cookie. */
export async function startSession(deps: WebDeps, response: ServerResponse, userId: string): Promise<void> {
  const token = await openSession(deps.db, userId);
  deps.cookies.write(response, SESSION_COOKIE, token, SESSION_LIFETIME_MS / 1000);
  // A new pre-session value too: a token seen before sign-in is worth nothing after sign-out.
  deps.cookies.write(response, PRE_SESSION_COOKIE, "", 0);
}

export async function endSession(deps: WebDeps, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const token = deps.cookies.read(request, SESSION_COOKIE);
  if (token) await signOut(deps.db, token);
  deps.cookies.write(response, SESSION_COOKIE, "", 0);
}
