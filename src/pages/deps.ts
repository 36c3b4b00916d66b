// What every page module is given: built once by app.ts and shared by the console and the OAuth pages.
import type { IncomingMessage } from "node:http";
import type { Queryable } from "../storage/index.ts";
import { cookieJar, type CookieJar } from "./cookies.ts";
import type { SessionSightings } from "./page-limit.ts";

export interface PageDeps {
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

export function pageDeps(
  db: Queryable,
  publicUrl: () => string,
  csrfSecret: string,
  clientAddress: PageDeps["clientAddress"],
  sessions?: SessionSightings,
): PageDeps {
  // Read when the first page is served: the public URL may follow the port the listener bound.
  let cookies: CookieJar | undefined;
  return {
    db,
    get origin() {
      return new URL(publicUrl()).origin;
    },
    csrfSecret,
    get cookies() {
      return (cookies ??= cookieJar(publicUrl().startsWith("https:")));
    },
    clientAddress,
    ...(sessions ? { sessions } : {}),
  };
}
