// What every page module is given: built once by app.ts and shared by the console and the OAuth pages.
import type { IncomingMessage } from "node:http";
import type { Queryable } from "../storage/index.ts";
import { cookieJar, type CookieJar } from "./cookies.ts";
import type { SessionSightings } from "./page-limit.ts";

export interface PageDeps {
  readonly db: Queryable;
  /** Where the console is reached, e.g. `https://api.example.com` (no trailing slash). */
  readonly origin: string;
  /**
   * The origins a form may be posted from: `origin`, and, when no PUBLIC_URL names it and the
   * server is reached on this machine, the other spellings of loopback at the same port
   * (`localhost`, `127.0.0.1`, `[::1]`), which are the same machine and port to a browser user.
   */
  readonly formOrigins: readonly string[];
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
  /** PUBLIC_URL is unset: the public URL is the address the listener bound. */
  derivedUrl = false,
): PageDeps {
  // Read when the first page is served: the public URL may follow the port the listener bound.
  let cookies: CookieJar | undefined;
  return {
    db,
    get origin() {
      return new URL(publicUrl()).origin;
    },
    get formOrigins() {
      const url = new URL(publicUrl());
      if (!derivedUrl || !LOOPBACK.includes(url.hostname)) return [url.origin];
      return LOOPBACK.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`);
    },
    csrfSecret,
    get cookies() {
      return (cookies ??= cookieJar(publicUrl().startsWith("https:")));
    },
    clientAddress,
    ...(sessions ? { sessions } : {}),
  };
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
