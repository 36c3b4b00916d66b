// The second listener (APPS_PORT): published apps, each deployment on its own origin, never the
// API's. The Host names the deployment (`<label>.localhost` or `<label>.<APPS_DOMAIN>`); its tree
// is served by serveSite. Unknown hosts, unpublished and deleted deployments answer 404.
//
// A private project's app answers only with a valid access token (src/domain/app-access.ts): given
// as `?access_token=` it is checked, kept in an HttpOnly cookie of this origin, and the browser is
// sent to the same address without it, so the token does not linger in the address bar, history
// or Referer; later requests (the page's own assets) carry the cookie (`__Host-` prefixed over https).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { createLimitedServer, DEFAULT_SERVER_LIMITS, listen, type ServerLimits } from "../listen.ts";
import { ACCESS_TOKEN_PARAM, ACCESS_TOKEN_TTL_MS, type AppAccess } from "../domain/app-access.ts";
import { deploymentFile, readBlob } from "../domain/builds.ts";
import { findPublishedDeployment } from "../domain/deployments.ts";
import type { Database } from "../storage/index.ts";
import { isStorageUnavailable } from "../storage/unavailable.ts";
import { cookieJar, type CookieJar } from "../pages/cookies.ts";
import { sameOriginPath } from "../pages/redirect.ts";
import { securityHeaders, sendNotFound, serveSite, type Site } from "./static.ts";

const ACCESS_COOKIE = "pb_app_access";

export interface AppsServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<string>;
  stop(): Promise<void>;
}

export function createAppsServer(options: {
  db: Database;
  access: AppAccess;
  logger: Logger;
  limits?: ServerLimits;
}): AppsServer {
  const { db, access, logger } = options;
  const secure = access.secure;
  const cookies = cookieJar(secure);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const head = request.method === "HEAD";
    const label = access.labelOf(request.headers.host);
    const deployment = label ? await findPublishedDeployment(db, label) : undefined;
    if (!deployment) return sendNotFound(response, { secure }, head);

    if (
      deployment.visibility === "private" &&
      !admitToPrivateApp(request, response, deployment.projectId, { access, cookies, head })
    )
      return;

    const site: Site = {
      async file(path) {
        const file = await deploymentFile(db, deployment.id, path);
        return file && { ...file, open: () => readBlob(db, file.sha256, file.sizeBytes) };
      },
    };
    // Private apps are not to be indexed either; the cookie-gated answers must not be cached by proxies.
    if (deployment.visibility === "private") response.setHeader("Cache-Control", "private, no-cache");
    await serveSite(request, response, site, {
      noindex: deployment.visibility !== "public",
      secure,
      onError: (error) => logger.warn({ err: error, deployment_id: deployment.id }, "serving an app failed"),
    });
  }

  // The API's limits; refusals before a request (431, 408) keep Node's plain answers: no API here.
  const server = createLimitedServer(options.limits ?? DEFAULT_SERVER_LIMITS, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      const unavailable = isStorageUnavailable(error);
      if (unavailable) logger.warn({ err: error }, "apps listener: database unavailable");
      else logger.error({ err: error }, "apps listener failed");
      if (response.headersSent) response.destroy();
      else if (unavailable)
        response
          .writeHead(503, { "Content-Type": "text/plain", "Retry-After": "5" })
          .end("Temporarily unavailable; try again in a few seconds.");
      else response.writeHead(500, { "Content-Type": "text/plain" }).end("Something went wrong.");
    });
  });

  let stopped: Promise<void> | undefined;
  return {
    server,
    listen: (port, host) => listen(server, port, host),
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      return stopped;
    },
  };
}

/**
 * Whether the request may see the private app of `projectId`; when not, it has been answered. A valid
 * `?access_token=` is moved into the access cookie and the browser sent to the same address without
 * it (the token then lingers in no address bar, history or Referer); the redirect's target goes
 * through the redirect sanitiser, so the link's path cannot send the browser to another host.
 */
export function admitToPrivateApp(
  request: IncomingMessage,
  response: ServerResponse,
  projectId: string,
  options: { access: AppAccess; cookies: CookieJar; head: boolean },
): boolean {
  const { access, cookies, head } = options;
  // Parsed as a path: a request target such as `//evil.example/x` names no host.
  const url = new URL(`http://app.invalid${request.url?.startsWith("/") ? request.url : "/"}`);
  const offered = url.searchParams.get(ACCESS_TOKEN_PARAM);
  if (offered !== null) {
    if (!access.verify(offered, projectId)) sendPrivate(response, head, "This link has expired or is not valid.");
    else {
      url.searchParams.delete(ACCESS_TOKEN_PARAM);
      cookies.write(response, ACCESS_COOKIE, offered, Math.floor(ACCESS_TOKEN_TTL_MS / 1000));
      response.writeHead(303, {
        ...securityHeaders({ secure: access.secure }),
        Location: sameOriginPath(url.pathname + url.search) ?? "/",
        "Cache-Control": "no-store",
      });
      response.end();
    }
    return false;
  }
  // Every value: a sibling app under the same domain may have set one of the same name (without the
  // `__Host-` prefix, over http), and sending it first must not shadow this app's own.
  if (cookies.readAll(request, ACCESS_COOKIE).some((token) => access.verify(token, projectId))) return true;
  sendPrivate(response, head, "This app is private. Open it through the link the API gives for the project.");
  return false;
}

function sendPrivate(response: ServerResponse, head: boolean, message: string): void {
  const body = Buffer.from(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Private app</title></head><body><h1>Private app</h1><p>${message}</p></body></html>\n`,
  );
  response.writeHead(403, {
    ...securityHeaders({ noindex: true }),
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": String(body.length),
    "Cache-Control": "no-store",
  });
  response.end(head ? undefined : body);
}
