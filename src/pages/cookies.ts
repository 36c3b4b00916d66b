// Cookies of the console and of published apps: HttpOnly, SameSite=Lax, Path=/, Secure when served
// over https (PUBLIC_URL, APPS_DOMAIN), and then with the `__Host-` prefix, which a sibling origin
// (another app under the same domain, say) cannot set or overwrite.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface CookieJar {
  /** The cookie's full name, prefix included. */
  name(base: string): string;
  /** The first value the browser sent (browsers send the most specific path first). */
  read(request: IncomingMessage, base: string): string | undefined;
  /**
   * Every value sent under the name, in order. Where another origin could have set one of the same
   * name (a sibling subdomain, for a cookie without the `__Host-` prefix), the one that checks out
   * is the one to take, not the first.
   */
  readAll(request: IncomingMessage, base: string): string[];
  /** Appends a Set-Cookie; `maxAgeSeconds: 0` deletes. */
  write(response: ServerResponse, base: string, value: string, maxAgeSeconds?: number): void;
}

/** The values of the cookie `name` in a Cookie header, in the order sent. */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? "").split(";")) {
    const equals = part.indexOf("=");
    if (equals < 1 || part.slice(0, equals).trim() !== name) continue;
    values.push(part.slice(equals + 1).trim());
  }
  return values;
}

export function cookieJar(secure: boolean): CookieJar {
  const name = (base: string) => (secure ? `__Host-${base}` : base);
  return {
    name,
    read: (request, base) => cookieValues(request.headers.cookie, name(base))[0],
    readAll: (request, base) => cookieValues(request.headers.cookie, name(base)),
    write(response, base, value, maxAgeSeconds) {
      const attributes = [`${name(base)}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
      if (secure) attributes.push("Secure");
      if (maxAgeSeconds !== undefined) attributes.push(`Max-Age=${maxAgeSeconds}`);
      const existing = response.getHeader("Set-Cookie");
      const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
      response.setHeader("Set-Cookie", [...list, attributes.join("; ")]);
    },
  };
}
