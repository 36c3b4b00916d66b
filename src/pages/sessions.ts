// Signing a browser in and out: the session cookie, and the pre-session cookie a signed-out
// browser's CSRF token is bound to (see visitor.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { openSession, SESSION_LIFETIME_MS, signOut } from "../domain/sessions.ts";
import type { PageDeps } from "./deps.ts";

export const SESSION_COOKIE = "pb_session";
/** A random value identifying a browser before it signs in, to bind the sign-in form's CSRF token. */
export const PRE_SESSION_COOKIE = "pb_pre";

/** Signs the browser in: a new session (never one it brought: no fixation) in a fresh cookie. */
export async function startSession(deps: PageDeps, response: ServerResponse, userId: string): Promise<void> {
  const token = await openSession(deps.db, userId);
  deps.cookies.write(response, SESSION_COOKIE, token, SESSION_LIFETIME_MS / 1000);
  // A new pre-session value too: a token seen before sign-in is worth nothing after sign-out.
  deps.cookies.write(response, PRE_SESSION_COOKIE, "", 0);
}

export async function endSession(deps: PageDeps, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const token = deps.cookies.read(request, SESSION_COOKIE);
  if (token) await signOut(deps.db, token);
  deps.cookies.write(response, SESSION_COOKIE, "", 0);
}
