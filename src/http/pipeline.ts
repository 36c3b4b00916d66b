// The one request pipeline. Every request passes, in order:
//   request id → route (404/405) → authenticate (401) → rate limit (429) → scope (401
//   insufficient_scope) → body (415/413/400) → validate against the contract (400) → idempotency
//   (replay/409/422) → handler → response
// and leaves an audit entry, whatever its outcome. Handlers see only typed input and answer typed
// results; every error, theirs included, leaves here in the contract's one error shape. A client
// address that has failed too often before any key was identified (404/405 on routing, 401 on
// authentication) is answered `429 ip_rate_limited` at those steps instead, and authenticated from
// memory only (address-limit.ts). An unreachable database answers 503 (storage/unavailable.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Readable } from "node:stream";
import type { Logger } from "pino";
import type { Operation } from "openapi-backend";
import { operationMeta, type Handlers, type OperationId } from "../../generated/handlers.ts";
import type { Context } from "../handlers/context.ts";
import { newId } from "../storage/ids.ts";
import type { Principal, Refusal } from "../domain/keys.ts";
import type { Contract } from "./contract.ts";
import { mediaTypeOf, readJsonBody, requireMediaType } from "./body.ts";
import { HttpError, errorBody, internalError, serviceUnavailable, toHttpError } from "./errors.ts";
import { authenticateRequest } from "./auth.ts";
import { rateLimitHeaders, type KeyRateLimiter } from "./rate-limit.ts";
import type { AddressLimiter, AddressRefusal } from "./address-limit.ts";
import * as idempotency from "./idempotency.ts";
import type { AuditWriter } from "./audit.ts";

export interface PipelineDeps {
  contract: Contract;
  handlers: Handlers<Context>;
  rateLimiter: KeyRateLimiter;
  /** Resolves a bearer secret to its key and workspace, or says why it cannot. */
  authenticate: (secret: string) => Promise<Principal | Refusal>;
  /** The same from memory alone (no database work): undefined when the secret is not known there. */
  authenticateFromMemory: (secret: string) => Principal | Refusal | undefined;
  /** Counts and refuses, per client address, requests failing before a key is identified. */
  addressLimiter: AddressLimiter;
  /** The per-request context handlers receive. */
  context: (principal: Principal, requestId: string, log: Logger) => Context;
  idempotencyDb: idempotency.AnyPgDatabase;
  audit: AuditWriter;
  /** The client's address, as TRUST_PROXY says to read it. */
  clientAddress: (request: IncomingMessage) => string | null;
  logger: Logger;
}

interface HandlerResult {
  status: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}

export function createPipeline(deps: PipelineDeps) {
  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Under a flood the audit queue is full: wait for room rather than let it grow. With the
    // database unreachable as well, there is no room to wait for: refuse, unrecorded.
    const room = deps.audit.admit();
    if (room && !(await room)) return refuseUnrecorded(response, deps.logger, request);
    const started = performance.now();
    const requestId = newId("req");
    const log = deps.logger.child({ request_id: requestId });
    // The request target is a path; parsed against a fixed origin so `//v1/…` stays a path.
    const url = new URL(`http://localhost${request.url?.startsWith("/") ? request.url : "/"}`);
    const method = request.method ?? "GET";
    let route: string | null = null;
    // Whose key made the request, for the audit log: also known for a revoked or expired key.
    // An OAuth token's requests are recorded under its application's client id, not a key.
    let caller: { workspaceId: string | null; keyId: string | null; clientId: string | null } = { workspaceId: null, keyId: null, clientId: null };
    // Read now: once a response has finished, a socket closed after it (Connection: close) is
    // detached from the request (`request.socket` is null), and a throw in 'finish' would crash.
    const ip = deps.clientAddress(request);
    const addressRefusal = deps.addressLimiter.refusal(ip);
    response.setHeader("X-Request-Id", requestId);
    response.on("finish", () => {
      const latencyMs = Math.round(performance.now() - started);
      deps.audit.record({
        requestId,
        ...caller,
        method,
        route,
        path: url.pathname,
        status: response.statusCode,
        ip,
        userAgent: request.headers["user-agent"] ?? null,
        latencyMs,
      });
      log.info({ method, route, status: response.statusCode, latency_ms: latencyMs }, "request");
    });

    try {
      const operation = deps.contract.match(method, url.pathname);
      route = operation.path;
      const operationId = operation.operationId as OperationId;
      // A refused address is authenticated from memory only: no database work for it.
      const authenticate = addressRefusal
        ? async (secret: string) => deps.authenticateFromMemory(secret) ?? UNKNOWN_IN_MEMORY
        : deps.authenticate;
      const principal = await authenticateRequest(request.headers.authorization, authenticate, (refusal) => {
        caller = { workspaceId: refusal.workspaceId ?? null, keyId: refusal.keyId ?? null, clientId: refusal.clientId ?? null };
      });
      caller = principal.client
        ? { workspaceId: principal.workspace.id, keyId: null, clientId: principal.client.id }
        : { workspaceId: principal.workspace.id, keyId: principal.key.id, clientId: null };

      const limit = await deps.rateLimiter.consume(principal.key.id, principal.workspace.plan);
      for (const [name, value] of Object.entries(rateLimitHeaders(limit))) response.setHeader(name, value);
      if (!limit.allowed) {
        throw new HttpError(429, "key_rate_limited", `Too many requests from this key; retry after ${limit.retryAfterSeconds} seconds.`);
      }
      requireScopes(operationMeta[operationId].scopes, principal);

      const body = await readBody(request, operation);
      // A multipart body is not read here: its handler streams it and checks its parts.
      const streamed = mediaTypeOf(request) === "multipart/form-data";
      const { params, query } = deps.contract.validate(
        { method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers as Record<string, string>, body },
        operation,
        { streamedBody: streamed },
      );
      const input = {
        path: params,
        query,
        header: declaredHeaders(request, operation),
        body: streamed ? { contentType: request.headers["content-type"]!, stream: request } : body,
      };
      const context = deps.context(principal, requestId, log);
      const run = () => (deps.handlers[operationId] as (input: unknown, context: Context) => Promise<HandlerResult>)(input, context);

      const key = request.headers["idempotency-key"];
      const result =
        operationMeta[operationId].idempotent && typeof key === "string"
          ? await withIdempotency(
              deps.idempotencyDb,
              {
                workspaceId: principal.workspace.id,
                environment: principal.key.environment,
                key,
                method,
                path: url.pathname,
                requestHash: idempotency.requestHash({ method, path: url.pathname, body: fingerprint(request, body) }),
              },
              run,
              requestId,
            )
          : await run();
      await send(response, result);
    } catch (error) {
      let failure = toHttpError(error);
      if (!failure) log.error({ err: error }, "unhandled error");
      else if (failure.code === "service_unavailable") log.warn({ err: error }, "database unavailable");
      if (failure && failedBeforeIdentifying(failure, route)) {
        if (addressRefusal) failure = addressLimited(addressRefusal);
        else deps.addressLimiter.failed(ip);
      }
      sendError(response, failure ?? internalError(), requestId, request);
    }
  };
}

/** A 503 for a request the audit log cannot take (database down, queue full); in the process log only. */
function refuseUnrecorded(response: ServerResponse, logger: Logger, request: IncomingMessage): void {
  const requestId = newId("req");
  response.setHeader("X-Request-Id", requestId);
  logger.warn({ request_id: requestId, method: request.method, path: request.url?.split("?")[0] }, "refused unrecorded: audit log full and database unavailable");
  sendError(response, serviceUnavailable(), requestId, request);
}

const UNKNOWN_IN_MEMORY: Refusal = { refused: "invalid" };

/** A refusal that came before any key was identified: no route (404/405), or no valid credential (401). */
function failedBeforeIdentifying(failure: HttpError, route: string | null): boolean {
  if (route === null) return failure.status === 404 || failure.status === 405;
  return failure.status === 401 && failure.code !== "insufficient_scope";
}

function addressLimited(refusal: AddressRefusal): HttpError {
  const headers = rateLimitHeaders({ allowed: false, retryAfterSeconds: refusal.retryAfterSeconds, windows: [refusal.window] });
  return new HttpError(
    429,
    "ip_rate_limited",
    `Too many requests without a valid API key from this address; retry after ${refusal.retryAfterSeconds} seconds.`,
    null,
    headers,
  );
}

function requireScopes(required: readonly string[], principal: Principal): void {
  const granted = principal.key.scopes;
  if (granted.includes("*")) return;
  const missing = required.filter((scope) => !granted.includes(scope as (typeof granted)[number]));
  if (missing.length > 0) {
    throw new HttpError(401, "insufficient_scope", `This key lacks the scope ${missing.join(", ")} that this operation requires.`);
  }
}

async function readBody(request: IncomingMessage, operation: Operation): Promise<unknown> {
  const requestBody = operation.requestBody as { required?: boolean; content: Record<string, unknown> } | undefined;
  if (!requestBody) return undefined;
  const accepted = Object.keys(requestBody.content);
  requireMediaType(request, accepted, requestBody.required ?? false);
  if (mediaTypeOf(request) !== "application/json") return undefined;
  const body = await readJsonBody(request);
  if (body === undefined && requestBody.required) {
    throw new HttpError(400, "invalid_request", "The request needs a JSON body.");
  }
  return body;
}

/** The request headers the operation declares, under the names the contract gives them. */
function declaredHeaders(request: IncomingMessage, operation: Operation): Record<string, string> {
  const header: Record<string, string> = {};
  for (const parameter of (operation.parameters ?? []) as { in: string; name: string }[]) {
    const value = parameter.in === "header" ? request.headers[parameter.name.toLowerCase()] : undefined;
    if (typeof value === "string") header[parameter.name] = value;
  }
  return header;
}

/** What tells two requests with one Idempotency-Key apart: the JSON body, or for a multipart body
 * (streamed to storage, never held) its declared length. */
function fingerprint(request: IncomingMessage, body: unknown): unknown {
  return body ?? (request.headers["content-length"] ? { content_length: request.headers["content-length"] } : undefined);
}

/** Runs a creating request at most once per Idempotency-Key, replaying its stored answer after. */
async function withIdempotency(
  db: idempotency.AnyPgDatabase,
  request: idempotency.BeginInput,
  run: () => Promise<HandlerResult>,
  requestId: string,
): Promise<HandlerResult> {
  const claim = await idempotency.begin(db, request);
  switch (claim.kind) {
    case "replay":
      return { status: claim.status, headers: { ...claim.headers, [idempotency.IDEMPOTENT_REPLAYED_HEADER]: "true" }, body: claim.body };
    case "in_use":
      throw new HttpError(409, "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry later.", "Idempotency-Key");
    case "mismatch":
      throw new HttpError(
        422,
        "idempotency_key_reused",
        "This Idempotency-Key was used with a different request in the last 24 hours; use a new key.",
        "Idempotency-Key",
      );
  }
  let result: HandlerResult;
  try {
    result = await run();
  } catch (error) {
    const failure = toHttpError(error);
    if (!failure || failure.status >= 500) {
      await idempotency.abandon(db, claim.lease);
      throw error;
    }
    result = { status: failure.status, headers: failure.headers, body: errorBody(failure.code, failure.message, failure.param, requestId) };
  }
  await idempotency.finish(db, claim.lease, { status: result.status, headers: stringHeaders(result.headers), body: result.body });
  return result;
}

function stringHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
}

async function send(response: ServerResponse, result: HandlerResult): Promise<void> {
  for (const [name, value] of Object.entries(stringHeaders(result.headers))) response.setHeader(name, value);
  response.statusCode = result.status;
  const body = result.body;
  if (body === undefined) {
    response.end();
  } else if (body instanceof Uint8Array) {
    response.setHeader("Content-Type", "application/octet-stream");
    response.end(body);
  } else if (isReadable(body)) {
    response.setHeader("Content-Type", "application/octet-stream");
    await pipeTo(body, response);
  } else {
    response.setHeader("Content-Type", "application/json");
    response.end(JSON.stringify(body));
  }
}

function isReadable(value: unknown): value is Readable {
  return typeof (value as Readable | null)?.pipe === "function";
}

async function pipeTo(source: Readable, response: ServerResponse): Promise<void> {
  const { pipeline } = await import("node:stream/promises");
  await pipeline(source, response);
}

function sendError(response: ServerResponse, error: HttpError, requestId: string, request: IncomingMessage): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  const sendsBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
  if (sendsBody && !request.readableEnded) {
    // The client may still be sending a body we will not read: close rather than drain it.
    response.setHeader("Connection", "close");
  }
  response.statusCode = error.status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(errorBody(error.code, error.message, error.param, requestId)));
}
