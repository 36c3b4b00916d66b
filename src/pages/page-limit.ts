// The pages (/settings/*, /oauth/*) behind the per-address limit of unauthenticated API traffic:
// the same limiter, so the same counts (src/http/address-limit.ts). The pages are served outside the
// API's pipeline, and each of their refusals (a forged CSRF token, an unknown OAuth client) is an
// audit row: unlimited, a flood from one address was a database write a request.
//
// Decisions:
// - Counted, as the API counts what fails before a key is identified: a page request answered 4xx to
//   a browser that is not signed in, and any request carrying a session cookie that does not resolve
//   (a made-up one costs a lookup however the page answers). A signed-in person's mistakes are not
//   counted, nor are 5xx (ours), nor the answers that cost no database work (the stylesheet and
//   script, the authorization server's metadata: the caller does not put them behind the gate).
// - Once an address has used its window, its page requests are answered 429 with Retry-After and the
//   window's rate-limit headers, before any database work: an HTML page for people, the OAuth error
//   shape (`temporarily_unavailable`, RFC 6749 §4.1.2.1) at the token and revocation endpoints.
//   A session this process saw signed in within the window still passes, so people behind the same
//   address (an office's NAT) are not locked out by one misbehaving client.
// - The refusals past the limit are not one audit row each: they are counted per address and window,
//   and written as one `pages.rate_limited` row with their `count` when the window ends (or the
//   server stops). A process killed meanwhile loses that count, which only ever describes a flood.
//   API requests keep one audit row each, as the service description requires.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { recordAdminAction } from "../domain/audit-log.ts";
import { addressKey, type AddressLimiter, type AddressRefusal } from "../http/address-limit.ts";
import { rateLimitHeaders } from "../http/rate-limit/index.ts";
import { newId } from "../storage/ids.ts";
import type { Queryable } from "../storage/index.ts";
import { html } from "../html/template.ts";
import { sendPage } from "./respond.ts";
import { pageDocument } from "./shell.ts";

/** How a refusal is answered: a page for people, JSON for the OAuth protocol's endpoints. */
export type PageKind = "page" | "oauth";

/** What the page handlers tell the gate about the browser's session (src/pages/visitor.ts). */
export interface SessionSightings {
  /** The request's session cookie named a valid session. */
  signedIn(request: IncomingMessage, token: string): void;
  /** The request carried a session cookie that names no valid session. */
  unknownSession(request: IncomingMessage): void;
}

export interface PageLimit {
  readonly sessions: SessionSightings;
  /**
   * True when the request may be served; false when it was answered 429. The request is counted
   * against its address when its answer turns out to be a failure.
   */
  admit(request: IncomingMessage, response: ServerResponse, kind: PageKind, sessionToken: string | undefined): boolean;
  /** Writes the counts of windows still open, and stops. */
  close(): Promise<void>;
}

interface Tally {
  count: number;
  readonly first: {
    readonly requestId: string;
    readonly method: string;
    readonly path: string;
    readonly ip: string | null;
    readonly userAgent: string | null;
  };
  readonly timer: NodeJS.Timeout;
}

/** Sessions remembered as signed in; more are forgotten oldest first. */
const MAX_SESSIONS_SEEN = 10_000;

export function createPageLimit(options: {
  limiter: AddressLimiter;
  clientAddress: (request: IncomingMessage) => string | null;
  db: Queryable;
  logger: Logger;
  /** How long a session seen signed in passes a refused address (the limiter's window; default 60 s). */
  sessionMemoryMs?: number;
}): PageLimit {
  const { limiter, clientAddress, db, logger } = options;
  const sessionMemoryMs = options.sessionMemoryMs ?? 60_000;
  /** Session token → when it was last seen valid. */
  const seen = new Map<string, number>();
  const outcomes = new WeakMap<IncomingMessage, "signed-in" | "unknown">();
  const tallies = new Map<string, Tally>();
  const writes = new Set<Promise<void>>();

  const sessions: SessionSightings = {
    signedIn(request, token) {
      outcomes.set(request, "signed-in");
      seen.delete(token);
      if (seen.size >= MAX_SESSIONS_SEEN) seen.delete(seen.keys().next().value!);
      seen.set(token, Date.now());
    },
    unknownSession(request) {
      outcomes.set(request, "unknown");
    },
  };

  const recentlySignedIn = (token: string | undefined) =>
    token !== undefined && (seen.get(token) ?? 0) > Date.now() - sessionMemoryMs;

  function tally(request: IncomingMessage, address: string | null, refusal: AddressRefusal, requestId: string): void {
    const key = `${addressKey(address)} ${refusal.window.resetAt}`;
    const open = tallies.get(key);
    if (open) return void open.count++;
    const timer = setTimeout(() => write(key), refusal.retryAfterSeconds * 1000);
    timer.unref();
    const path = (request.url ?? "/").split("?")[0]!.slice(0, 1000);
    tallies.set(key, {
      count: 1,
      first: {
        requestId,
        method: request.method ?? "GET",
        path,
        ip: address,
        userAgent: request.headers["user-agent"]?.slice(0, 1000) ?? null,
      },
      timer,
    });
  }

  function write(key: string): void {
    const ended = tallies.get(key);
    if (!ended) return;
    tallies.delete(key);
    clearTimeout(ended.timer);
    const writing = recordAdminAction(db, {
      workspaceId: null,
      action: "pages.rate_limited",
      actor: "anonymous",
      target: null,
      request: { ...ended.first, status: 429 },
      count: ended.count,
    }).then(
      () => {},
      (error: unknown) =>
        logger.warn({ err: error, ip: ended.first.ip, count: ended.count }, "could not record the pages' refusals"),
    );
    writes.add(writing);
    void writing.finally(() => writes.delete(writing));
  }

  return {
    sessions,
    admit(request, response, kind, sessionToken) {
      const address = clientAddress(request);
      const refusal = limiter.refusal(address);
      if (refusal && !recentlySignedIn(sessionToken)) {
        const requestId = newId("req");
        tally(request, address, refusal, requestId);
        refuse(response, kind, refusal, requestId);
        return false;
      }
      response.once("finish", () => {
        const outcome = outcomes.get(request);
        const failed =
          outcome === "unknown" || (outcome !== "signed-in" && response.statusCode >= 400 && response.statusCode < 500);
        if (failed) limiter.failed(address);
      });
      return true;
    },
    async close() {
      for (const key of [...tallies.keys()]) write(key);
      await Promise.all(writes);
    },
  };
}

function refuse(response: ServerResponse, kind: PageKind, refusal: AddressRefusal, requestId: string): void {
  const wait = refusal.retryAfterSeconds;
  const text = `Too many requests from your address that could not be served. Wait ${wait === 1 ? "1 second" : `${wait} seconds`}, then try again.`;
  response.setHeader("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(
    rateLimitHeaders({ allowed: false, retryAfterSeconds: wait, windows: [refusal.window] }),
  )) {
    response.setHeader(name, value);
  }
  if (kind === "oauth") {
    response.writeHead(429, {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      // Browser clients of the token endpoint read its answers cross-origin (no cookies there).
      "Access-Control-Allow-Origin": "*",
    });
    return void response.end(JSON.stringify({ error: "temporarily_unavailable", error_description: text }));
  }
  sendPage(
    response,
    429,
    pageDocument({
      title: "Too many requests",
      site: "Project Builder",
      heading: "Too many requests",
      masthead: html`<p class="brand">Project Builder</p>`,
      body: html`<div class="message error" role="alert"><p>${text}</p></div>`,
    }),
  );
}
