// The one redirect sanitiser: every redirect to a path someone else chose goes through it (the
// console's and OAuth sign-in's `next`, the apps listener's address without its access token).
//
// It checks the URL a browser will make of the target, never the raw string. A raw check misses what
// resolution does: `/settings/..//evil.example/x` (or `%2e%2e`) starts like a console path, yet
// resolves to the path `//evil.example/x`, which a browser reads as another host; a tab or newline
// is dropped by the URL parser and can join `/` and `/` the same way; `/\evil.example` is
// `//evil.example` to a browser.

/** Resolved against this, a target that stays on "our" origin keeps it; the host is never a real one. */
const BASE = new URL("http://redirect.invalid");
const MAX_TARGET_LENGTH = 4000;

/**
 * The path (and query) `target` resolves to on this origin, or undefined when it would leave it:
 * it must be a path (`/…`), resolve to this origin, and resolve to a path that does not start with
 * `//` or `/\`. With `within`, the resolved path must also be one of those paths or below one.
 * The answer is the resolved form, so the browser is sent exactly what was checked.
 */
export function sameOriginPath(target: string, options: { within?: readonly string[] } = {}): string | undefined {
  if (target.length > MAX_TARGET_LENGTH || !target.startsWith("/")) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(target, BASE);
  } catch {
    return undefined;
  }
  if (resolved.origin !== BASE.origin) return undefined;
  const path = resolved.pathname;
  if (path.startsWith("//") || path.startsWith("/\\")) return undefined;
  if (options.within && !options.within.some((root) => path === root || path.startsWith(`${root}/`))) return undefined;
  return path + resolved.search;
}

/** Where the console and OAuth sign-in may send a browser after signing in. */
const SIGN_IN_DESTINATIONS = ["/settings", "/oauth/authorize"];

/** A sign-in's `next`, made safe: a page of the console or the authorization endpoint, else `/settings`. */
export function safeNext(next: string | null | undefined): string {
  return (next && sameOriginPath(next, { within: SIGN_IN_DESTINATIONS })) || "/settings";
}

/** The console's sign-in page, which sends the browser on to `next` (a path safeNext accepts) afterwards. */
export function signInPath(next: string): string {
  return next === "/settings" ? "/settings/sign-in" : `/settings/sign-in?next=${encodeURIComponent(next)}`;
}
