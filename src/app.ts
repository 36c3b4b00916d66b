// The API's HTTP server over a given storage: contract, pipeline, handlers, rate limiter, cursors,
// audit, health probes and a graceful stop. (Published apps have a listener of their own:
// src/apps/server.ts; work after a request returns runs in src/jobs/.) `server.ts` builds one from the environment; tests build one on
// a throwaway database.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { createLimitedServer, DEFAULT_SERVER_LIMITS, listen, type ServerLimits } from "./listen.ts";
import type { AppAccess } from "./domain/app-access.ts";
import { authenticate } from "./domain/keys.ts";
import { ACCESS_TOKEN_PREFIX } from "./domain/oauth.ts";
import { authenticateAccessToken } from "./domain/oauth-access.ts";
import { logPageRequest, pageRoute } from "./pages/access-log.ts";
import { serveAsset } from "./pages/assets.ts";
import { createPageLimit, type PageKind } from "./pages/page-limit.ts";
import { pageDeps } from "./pages/deps.ts";
import { SESSION_COOKIE } from "./pages/sessions.ts";
import type { WebhookTargets } from "./domain/webhook-targets.ts";
import type { WorkQueue } from "./domain/work-queue.ts";
import { handlers } from "./handlers/index.ts";
import { answerSeals } from "./handlers/stored-answers.ts";
import type { RequestServices } from "./http/request-context.ts";
import { createAuditWriter } from "./http/audit.ts";
import { loadContract } from "./http/contract.ts";
import { createCursorCodec } from "./http/cursor.ts";
import { clientAddressResolver, type TrustProxy } from "./http/client-address.ts";
import { answerClientError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./http/errors.ts";
import { isStorageUnavailable } from "./storage/unavailable.ts";
import { createPipeline, servingHttp } from "./http/pipeline.ts";
import { DEFAULT_EVENT_STREAM_SETTINGS } from "./http/event-stream.ts";
import { createEventStreams } from "./domain/event-stream.ts";
import { createBuildPool } from "./jobs/build-pool/build-pool.ts";
import { createPrincipalCache } from "./http/principal-cache.ts";
import { openKeyScreen } from "./http/key-screen.ts";
import { createFrontDoor } from "./http/front-door.ts";
import { createAddressLimiter, DEFAULT_UNAUTHENTICATED_LIMIT } from "./http/address-limit.ts";
import {
  createKeyRateLimiter,
  createMemoryStore,
  type Plan,
  type PlanLimits,
  type RateLimitStore,
  type RateLimitWindows,
} from "./http/rate-limit/index.ts";
import type { Storage } from "./storage/index.ts";

export interface AppOptions {
  storage: Storage;
  logger: Logger;
  /** Where requests queue agent runs and deployment builds (src/jobs/). */
  work: WorkQueue;
  /** Published apps' origins and access tokens, for the `url` fields. */
  apps: AppAccess;
  /** Which webhook URLs may be registered (the delivery worker checks them again). */
  webhookTargets: WebhookTargets;
  /** Signs pagination cursors; every replica must share it. */
  cursorSecret: string | Uint8Array;
  /** Where rate-limit counters live (default: this process's memory); closed by `stop()`. */
  rateLimitStore?: RateLimitStore;
  /** Rate-limit window lengths; tests shorten them. */
  rateLimitWindows?: RateLimitWindows;
  /** Rate-limit figures per plan (default PLAN_LIMITS); tests that are not about limits raise them. */
  rateLimitPlans?: Readonly<Record<Plan, PlanLimits>>;
  /** How long an Idempotency-Key's claim outlives its last renewal (default 60 s); tests shorten it. */
  idempotencyLockTimeoutMs?: number;
  /** How long a stop waits for requests in flight before cutting connections. */
  drainTimeoutMs?: number;
  /** Timeouts and caps of the HTTP server (default DEFAULT_SERVER_LIMITS; config from the environment). */
  serverLimits?: ServerLimits;
  /** Whether the client address comes from X-Forwarded-For (config TRUST_PROXY; default: never). */
  trustProxy?: TrustProxy;
  /**
   * Requests a client address may make per window that fail before any key is identified
   * (config UNAUTHENTICATED_RATE_LIMIT; default 60 a minute; 0: no limit).
   */
  unauthenticatedLimit?: { limit: number; windowSeconds?: number };
  /**
   * Where people and OAuth clients reach this server (config PUBLIC_URL): issuer, console origin.
   * Unset: `http://localhost:<port>` with the port `listen` bound.
   */
  publicUrl?: string | undefined;
  /** Signs the console's CSRF tokens; every replica must share it. */
  csrfSecret: string;
  /** The live event streams' bounds (config EVENT_STREAMS_PER_KEY, EVENT_STREAM_HEARTBEAT_SECONDS); tests shorten them. */
  eventStreams?: {
    /** Streams a key may have open at once in this process (default 5). */
    perKey?: number;
    /** A comment line after this long without a write (default 15 s). */
    heartbeatMs?: number;
    /** Bytes a slow reader may leave unread before it is disconnected (default 1 MiB). */
    maxBufferedBytes?: number;
    /** How often every stream reads regardless of notifications (default 30 s). */
    pollMs?: number;
  };
}

type PageHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** How long /readyz waits for the database: probes give up after a few seconds themselves. */
const READY_PING_TIMEOUT_MS = 2000;

/** A version diff's batch in its thread: its line diffs stop within DIFF_BUDGET_MS, the rest is linear. */
const DIFF_THREAD_TIMEOUT_MS = 15_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface App {
  readonly server: Server;
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, lets requests in flight finish (up to the drain timeout), then releases resources. */
  stop(): Promise<void>;
  /** Writes the audit rows still queued (they are written a few milliseconds after each request). */
  flushAudit(): Promise<void>;
  /** Live event streams open in this process. */
  readonly openEventStreams: number;
}

/** Where the API is reached when PUBLIC_URL is unset: the address it bound, as localhost when that is every address. */
function boundUrl({ address, port }: AddressInfo): string {
  const host =
    address === "0.0.0.0" || address === "::" ? "localhost" : address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${port}`;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { storage, logger } = options;
  const db = storage.db;
  const contract = await loadContract();
  const rateLimiter = createKeyRateLimiter({
    store: options.rateLimitStore ?? createMemoryStore(),
    ...(options.rateLimitWindows ? { windows: options.rateLimitWindows } : {}),
    ...(options.rateLimitPlans ? { plans: options.rateLimitPlans } : {}),
  });
  const cursors = createCursorCodec({ secret: options.cursorSecret });
  const audit = createAuditWriter(db, logger);
  const isAccessToken = (secret: string) => secret.startsWith(ACCESS_TOKEN_PREFIX);
  const keyScreen = await openKeyScreen({ db, changes: storage.changes, unscreened: isAccessToken });
  const principals = createPrincipalCache({
    // An OAuth access token is used exactly like an API key; its prefix says which it is.
    authenticate: (secret) => (isAccessToken(secret) ? authenticateAccessToken(db, secret) : authenticate(db, secret)),
    changes: storage.changes,
  });
  const clientAddress = clientAddressResolver(options.trustProxy ?? false);
  const addressLimiter = createAddressLimiter(options.unauthenticatedLimit ?? { limit: DEFAULT_UNAUTHENTICATED_LIMIT });
  let draining = false;
  const streamOptions = options.eventStreams ?? {};
  const eventStreams = createEventStreams({
    db,
    changes: storage.changes,
    logger,
    ...(streamOptions.perKey !== undefined ? { perKey: streamOptions.perKey } : {}),
    ...(streamOptions.pollMs !== undefined ? { pollMs: streamOptions.pollMs } : {}),
  });
  // Version diffs' patches (tenant content) are worked out in a thread of the API's own, started on
  // the first diff: never on this event loop, and never queued behind a deployment's build.
  const diffThreads = createBuildPool({ threads: 1, timeoutMs: DIFF_THREAD_TIMEOUT_MS });

  const pipeline = createPipeline({
    contract,
    handlers,
    rateLimiter,
    screen: keyScreen.screen,
    authenticate: principals.authenticate,
    authenticateFromMemory: principals.fromMemory,
    addressLimiter,
    context: (principal, requestId, log): RequestServices => ({
      db,
      principal,
      partition: { workspaceId: principal.workspace.id, environment: principal.key.environment },
      requestId,
      log,
      cursors,
      work: options.work,
      apps: options.apps,
      webhookTargets: options.webhookTargets,
      eventStreams,
      diffFiles: diffThreads.diffFiles,
    }),
    idempotencyDb: db,
    answerSeals,
    ...(options.idempotencyLockTimeoutMs
      ? { idempotencyOptions: { lockTimeoutMs: options.idempotencyLockTimeoutMs } }
      : {}),
    audit,
    logger,
  });
  const api = servingHttp(pipeline, clientAddress, {
    heartbeatMs: streamOptions.heartbeatMs ?? DEFAULT_EVENT_STREAM_SETTINGS.heartbeatMs,
    maxBufferedBytes: streamOptions.maxBufferedBytes ?? DEFAULT_EVENT_STREAM_SETTINGS.maxBufferedBytes,
  });

  // The settings console and the OAuth endpoints: pages for people and protocol for applications,
  // beside the API on its origin but outside its pipeline (no API keys, their own error shapes).
  // Behind the API's per-address limit of unauthenticated traffic too (src/pages/page-limit.ts).
  const pageLimit = createPageLimit({ limiter: addressLimiter, clientAddress, db, logger });
  const pages = pageDeps(
    db,
    () => options.publicUrl ?? boundUrl(server.address() as AddressInfo),
    options.csrfSecret,
    clientAddress,
    pageLimit.sessions,
    options.publicUrl === undefined,
  );
  // Loaded on their first request: most API servers never serve a page, and starting without them
  // is ~0.15 s faster.
  let consoleLoaded: Promise<PageHandler> | undefined;
  let oauthLoaded: Promise<PageHandler> | undefined;
  let mcpLoaded: Promise<PageHandler> | undefined;
  const settings: PageHandler = async (request, response) => {
    consoleLoaded ??= import("./console/index.ts").then(({ createConsole }) =>
      createConsole({
        pages,
        db,
        logger,
        webhookTargets: options.webhookTargets,
        cursors,
        diffFiles: diffThreads.diffFiles,
      }),
    );
    return (await consoleLoaded)(request, response);
  };
  const oauth: PageHandler = async (request, response) => {
    oauthLoaded ??= import("./oauth/index.ts").then(({ createOAuthServer }) =>
      createOAuthServer({ pages, db, logger, issuer: pages.origin }),
    );
    return (await oauthLoaded)(request, response);
  };
  // The MCP server (src/mcp/): tools made of the contract's operations, each call through the pipeline.
  const mcp: PageHandler = async (request, response) => {
    mcpLoaded ??= import("./mcp/index.ts").then(({ createMcpServer }) =>
      createMcpServer({ pipeline, origin: pages.origin, clientAddress }),
    );
    return (await mcpLoaded)(request, response);
  };
  const pageFailed = (response: ServerResponse) => (error: unknown) => {
    const unavailable = isStorageUnavailable(error);
    if (unavailable) logger.warn({ err: error }, "page failed: database unavailable");
    else logger.error({ err: error }, "page failed");
    if (response.headersSent) return void response.destroy();
    if (unavailable) {
      response.writeHead(503, {
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
      return void response.end("The service cannot reach its database right now; try again in a few seconds.");
    }
    response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Something went wrong on our side.");
  };

  const frontDoor = createFrontDoor();
  const limits = options.serverLimits ?? DEFAULT_SERVER_LIMITS;
  const server = createLimitedServer(limits, (request, response) => {
    // Probes for orchestrators: outside the contract, unauthenticated, not audited.
    if (request.url === "/healthz") return void response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    if (request.url === "/readyz") {
      if (draining) return void response.writeHead(503, { "Content-Type": "text/plain" }).end("draining");
      return void withTimeout(storage.ping(), READY_PING_TIMEOUT_MS).then(
        () => response.writeHead(200, { "Content-Type": "text/plain" }).end("ready"),
        () => response.writeHead(503, { "Content-Type": "text/plain" }).end("storage unavailable"),
      );
    }
    if (draining) response.setHeader("Connection", "close");
    // A connection that turns idle while draining is closed at once rather than kept alive.
    response.once("finish", () => {
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    const path = request.url?.split("?")[0] ?? "";
    // The pages' static files and the authorization server's metadata cost no database work: they
    // are served whatever the address's count.
    const admitted = (kind: PageKind) =>
      pageLimit.admit(request, response, kind, pages.cookies.read(request, SESSION_COOKIE));
    const isPage =
      path === "/settings" ||
      path.startsWith("/settings/") ||
      path.startsWith("/oauth/") ||
      path === "/.well-known/oauth-authorization-server";
    // The pipeline logs each request it serves; these it does not serve are logged alike.
    if (isPage) logPageRequest(logger, request, response, pageRoute(path));
    if (path === "/settings" || path.startsWith("/settings/")) {
      if (serveAsset(request, response, path) || !admitted("page")) return;
      return void settings(request, response).catch(pageFailed(response));
    }
    if (path === "/.well-known/oauth-authorization-server")
      return void oauth(request, response).catch(pageFailed(response));
    if (path === "/mcp" || path === "/.well-known/oauth-protected-resource/mcp")
      return void mcp(request, response).catch(pageFailed(response));
    if (path.startsWith("/oauth/")) {
      if (!admitted(path === "/oauth/token" || path === "/oauth/revoke" ? "oauth" : "page")) return;
      return void oauth(request, response).catch(pageFailed(response));
    }
    if (frontDoor.paths.has(path)) {
      logPageRequest(logger, request, response, path);
      return void frontDoor.serve(request, response, path);
    }
    api(request, response).catch((error: unknown) => {
      logger.error({ err: error }, "pipeline failed");
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  server.on("clientError", (error: Error & { code?: string }, socket) => {
    logger.debug({ code: error.code }, "connection refused before a request");
    answerClientError(error, socket, limits.maxHeaderSize);
  });

  let stopped: Promise<void> | undefined;
  return {
    server,
    listen: (port, host) => listen(server, port, host),
    flushAudit: () => audit.flush(),
    get openEventStreams() {
      return eventStreams.size;
    },
    stop() {
      stopped ??= (async () => {
        draining = true;
        // Streams never finish by themselves: they end now, and their clients reconnect elsewhere.
        eventStreams.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timeout = setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs ?? 10_000);
        await closed;
        clearTimeout(timeout);
        principals.close();
        keyScreen.close();
        await pageLimit.close();
        addressLimiter.close();
        await audit.close(options.drainTimeoutMs ?? 10_000);
        await rateLimiter.close();
        await diffThreads.close();
      })();
      return stopped;
    },
  };
}
