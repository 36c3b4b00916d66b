// The process log's line for a request the pipeline does not serve (the console's pages, the OAuth
// endpoints and their metadata): one per request, in the pipeline's shape (src/http/pipeline.ts):
// `request` with request_id, method, route, status and latency_ms, so that an operator counts and
// times every request of the API's origin alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";

/** The path with what varies replaced, as a route: `/settings/w/{workspace}/webhooks/{id}`. */
export function pageRoute(path: string): string {
  return path
    .replace(/^\/settings\/w\/[^/]+/, "/settings/w/{workspace}")
    .replace(/\/[a-z]+_[A-Za-z0-9]+(?=\/|$)/g, "/{id}");
}

/** Writes the request's line once its answer is sent (or the connection closed before that). */
export function logPageRequest(
  logger: Logger,
  request: IncomingMessage,
  response: ServerResponse,
  route: string,
): void {
  const started = performance.now();
  response.once("close", () => {
    const requestId = response.getHeader("X-Request-Id");
    logger.info(
      {
        ...(typeof requestId === "string" ? { request_id: requestId } : {}),
        method: request.method,
        route,
        status: response.statusCode,
        latency_ms: Math.round(performance.now() - started),
      },
      "request",
    );
  });
}
