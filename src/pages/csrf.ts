// CSRF protection for every form (OWASP's signed double-submit, plus an Origin check):
// - the token is an HMAC, under a server secret shared by the replicas, of what identifies the
//   browser: its session (signed in) or a random pre-session cookie (the sign-in form);
// - a post must carry it in the `csrf_token` field, and, when the browser sends `Origin`, come
//   from the console's own origin. A forged or missing token is refused before anything runs.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { html, type Html } from "../html/template.ts";
import type { PageDeps } from "./deps.ts";
import { FormError } from "./forms.ts";

export const CSRF_FIELD = "csrf_token";

/** The hidden field every form carries its token in. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

export function csrfToken(secret: string, binding: string): string {
  return createHmac("sha256", secret).update(`csrf:${binding}`).digest("base64url");
}

export function validCsrfToken(secret: string, binding: string, presented: string | null): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfToken(secret, binding));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a post's Origin (when sent; old browsers omit it on same-origin posts) is `origin`. */
export function sameOrigin(originHeader: string | undefined, origin: string): boolean {
  return originHeader === undefined || originHeader === origin;
}

/** Refuses a post whose CSRF token or Origin is not this browser's and this console's. */
export function requireCsrf(
  deps: Pick<PageDeps, "origin" | "formOrigins" | "csrfSecret">,
  request: IncomingMessage,
  visitor: { readonly csrfBinding: string },
  form: URLSearchParams,
): void {
  if (!deps.formOrigins.some((origin) => sameOrigin(request.headers.origin, origin))) {
    throw new FormError(
      `This form was sent from ${request.headers.origin}, not from ${deps.origin} where this server is reached (PUBLIC_URL); it was refused and nothing was changed.`,
      400,
    );
  }
  if (!validCsrfToken(deps.csrfSecret, visitor.csrfBinding, form.get(CSRF_FIELD))) {
    throw new FormError(
      "This form has expired or was not sent from this page; reload the page and try again. Nothing was changed.",
      400,
    );
  }
}
