// Cookies of the console: HttpOnly, SameSite=Lax, Path=/, Secure when the server is reached over
// https (PUBLIC_URL), and then with the `__Host-` prefix, which a sibling origin (a published app on
// a subdomain, say) cannot set or overwrite.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface CookieJar {
  /** The cookie's full name, prefix included. */
  name(base: string): string;
  read(request: IncomingMessage, base: string): string | undefined;
  /** Appends a Set-Cookie; `maxAgeSeconds: 0` deletes. */
  write(response: ServerResponse, base: string, value: string, maxAgeSeconds?: number): void;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const equals = part.indexOf("=");
    if (equals < 1) continue;
    const name = part.slice(0, equals).trim();
    // The first of duplicates wins: browsers send the most specific path first.
    if (!cookies.has(name)) cookies.set(name, part.slice(equals + 1).trim());
  }
  return cookies;
}

export function cookieJar(secure: boolean): CookieJar {
  const name = (base: string) => (secure ? `__Host-${base}` : base);
  return {
    name,
    read: (request, base) => parseCookies(request.headers.cookie).get(name(base)),
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
