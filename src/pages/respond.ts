// Answers of the server-rendered pages: every page with a strict Content-Security-Policy (no inline
// script or style at all; the console's one stylesheet and script are files on this origin), not
// framable, not cached, not sniffed.
import type { ServerResponse } from "node:http";
import type { Html } from "../html/template.ts";

export interface PageOptions {
  /** Origins forms on this page may post to, or be redirected to after posting, besides 'self' (the consent page's redirect URI). */
  readonly formTargets?: readonly string[];
}

export function contentSecurityPolicy(options: PageOptions = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'none'",
    `form-action 'self'${(options.formTargets ?? []).map((target) => ` ${target}`).join("")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

function secureHeaders(response: ServerResponse, options: PageOptions): void {
  response.setHeader("Content-Security-Policy", contentSecurityPolicy(options));
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("X-Frame-Options", "DENY");
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form posts,
  // which the CSRF check refuses. Other sites (an OAuth client's redirect) still learn nothing.
  response.setHeader("Referrer-Policy", "same-origin");
  response.setHeader("Cache-Control", "no-store");
  response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
}

export function sendPage(response: ServerResponse, status: number, page: Html, options: PageOptions = {}): void {
  secureHeaders(response, options);
  response.statusCode = status;
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  response.end(`<!doctype html>\n${page.value}`);
}

/** 303 See Other: after a post, the browser fetches the target with GET. */
export function redirect(response: ServerResponse, location: string, status: 302 | 303 = 303): void {
  secureHeaders(response, {});
  response.statusCode = status;
  response.setHeader("Location", location);
  response.end();
}
