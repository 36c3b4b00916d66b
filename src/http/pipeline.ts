// The one request pipeline. Every request passes, in order:
//   request id → route (404/405) → authenticate (401) → rate limit (429) → scope (401
//   insufficient_scope) → body (415/413/400) → validate against the contract (400) → idempotency
//   (replay/409/422) → handler (its effect and its stored answer in one transaction) → response
// and leaves an audit entry, whatever its outcome. Handlers see only typed input and answer typed
// results; every error, theirs included, leaves here in the contract's one error shape. A secret
// that cannot be a key (its checksum fails) is refused without a lookup (key-screen.ts). A client
// address that has failed too often before any key was identified (404/405 on routing, 401 on
// authentication) is answered `429 ip_rate_limited` at those steps instead; from it, a key whose
// checksum holds is still looked up, a credential without one only from memory (address-limit.ts).
// An unreachable database answers 503 (storage/unavailable.ts).
//
// One pipeline, two transports: its core takes a transport-free request (method, target, headers,
// body stream or a multipart body's parts, client address, and the MCP tool it carries out, if any)
// and hands its answer (status, headers, body) to the transport's `deliver`, which writes it and
// says when it has gone. Over HTTP that is the ServerResponse (`servingHttp`, below); over MCP a
// tool's result (src/mcp/). Every rule above is here, once, whichever way a request came; the idempotency step
// is idempotent-call.ts. An event stream (GET /v1/events/stream, over HTTP only) is answered like
// any request, then goes on after its answer has begun (event-stream.ts): its audit row, its
// latency, are its start.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Readable } from "node:stream";
import type { Logger } from "pino";
import type { Operation } from "openapi-backend";
import { operationMeta, type Handlers, type OperationId } from "../../generated/handlers.ts";
import type { FormPart, MultipartBody } from "../stream-bodies.ts";
import type { Context, RequestServices } from "./request-context.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import type { Principal, Refusal } from "../domain/keys.ts";
import type { Contract } from "./contract.ts";
import { mediaTypeOf } from "../request-body.ts";
import { readJsonBody, requireMediaType } from "./body.ts";
import { HttpError, errorBody, internalError, serviceUnavailable, toHttpError } from "./errors.ts";
import { contentDisposition, isFileBody } from "./file-body.ts";
import { httpParts, multipartBody } from "./multipart.ts";
import { authenticateRequest } from "./auth.ts";
import { rateLimitHeaders, type KeyRateLimiter } from "./rate-limit/index.ts";
import type { AddressLimiter, AddressRefusal } from "./address-limit.ts";
import type { Screening } from "./key-screen.ts";
import type * as idempotency from "./idempotency.ts";
import { idempotently, stringHeaders, type AnswerSeal } from "./idempotent-call.ts";
import { requestEffect, type HandlerResult } from "./request-transaction.ts";
import type { AuditWriter } from "./audit.ts";
import {
  DEFAULT_EVENT_STREAM_SETTINGS,
  isEventStream,
  writeEventStream,
  type EventStreamSettings,
} from "./event-stream.ts";

export interface PipelineDeps {
  contract: Contract;
  handlers: Handlers<Context>;
  rateLimiter: KeyRateLimiter;
  /** Whether a bearer secret can be a credential at all, told in memory (key-screen.ts). */
  screen: (secret: string) => Promise<Screening>;
  /** Resolves a bearer secret to its key and workspace, or says why it cannot. */
  authenticate: (secret: string) => Promise<Principal | Refusal>;
  /** The same from memory alone (no database work): undefined when the secret is not known there. */
  authenticateFromMemory: (secret: string) => Principal | Refusal | undefined;
  /** Counts and refuses, per client address, requests failing before a key is identified. */
  addressLimiter: AddressLimiter;
  /** The per-request context handlers receive, but for its effect, which the pipeline adds. */
  context: (principal: Principal, requestId: string, log: Logger) => RequestServices;
  idempotencyDb: Database;
  /** What an operation's stored answer keeps in place of a secret it carried. */
  answerSeals: Partial<Record<OperationId, AnswerSeal>>;
  /** Idempotency claims' lock timeout (default IDEMPOTENCY_LOCK_TIMEOUT_MS); tests shorten it. */
  idempotencyOptions?: idempotency.IdempotencyOptions;
  audit: AuditWriter;
  logger: Logger;
}

/** A request, whichever transport brought it. */
export interface PipelineRequest {
  readonly method: string;
  /** The request target: a path and its query. */
  readonly url: string;
  /** With lower-case names, as Node gives them. */
  readonly headers: IncomingHttpHeaders;
  /** The body as it arrives: the HTTP request itself, or the bytes a transport made of a tool's arguments. */
  readonly body: Readable;
  /** A multipart body's parts when the transport holds them as they are (a tool's arguments), unread over HTTP. */
  readonly parts?: AsyncIterable<FormPart>;
  /** The client's address, as TRUST_PROXY says to read it. */
  readonly clientAddress: string | null;
  /** The MCP tool (an operationId) the request carries out; undefined over HTTP. */
  readonly tool?: string;
}

/** What the pipeline answers, for its transport to write. */
export interface Answer {
  readonly requestId: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Nothing (undefined), a file (FileBody), an event stream, JSON bytes written ahead, or any other value: JSON. */
  readonly body: unknown;
  /** The pipeline refused or failed the request: the body is the contract's error shape. */
  readonly failed: boolean;
}

/**
 * Writes an answer and resolves, once it has gone, with the status sent; undefined when it never
 * went (the client left first), and the request is then not recorded. A failure while writing (a
 * download's stream breaking) rejects: the pipeline then answers that failure, if it still can.
 */
export type Deliver = (answer: Answer) => Promise<number | undefined>;

/**
 * What runs after authentication in place of a contract's operation: the MCP endpoint (POST /mcp),
 * which answers the protocol's messages and carries out each tool call as a request of its own.
 */
export interface Endpoint {
  /** Recorded as the request's route. */
  readonly route: string;
  serve(call: {
    readonly request: PipelineRequest;
    readonly principal: Principal;
    readonly requestId: string;
    readonly log: Logger;
  }): Promise<EndpointResult>;
}

export interface EndpointResult {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** False when the request is no audit row of its own (an MCP tool call is the row of the request it made). */
  readonly recorded?: boolean;
}

export interface Pipeline {
  /** Carries a request through every step; `endpoint`, when given, serves it after authentication. */
  handle(request: PipelineRequest, deliver: Deliver, endpoint?: Endpoint): Promise<void>;
}

export function createPipeline(deps: PipelineDeps): Pipeline {
  async function handle(request: PipelineRequest, deliver: Deliver, endpoint?: Endpoint): Promise<void> {
    // Under a flood the audit queue is full: wait for room rather than let it grow. With the
    // database unreachable as well, there is no room to wait for: refuse, unrecorded.
    const room = deps.audit.admit();
    if (room && !(await room)) return refuseUnrecorded(request, deliver, deps.logger);
    const started = performance.now();
    const requestId = newId("req");
    const log = deps.logger.child({ request_id: requestId });
    // The request target is a path; parsed against a fixed origin so `//v1/…` stays a path.
    const url = new URL(`http://localhost${request.url.startsWith("/") ? request.url : "/"}`);
    const { method } = request;
    let route: string | null = null;
    // Whose key made the request, for the audit log: also known for a revoked or expired key.
    // An OAuth token's requests are recorded under its application's client id, not a key.
    let caller: { workspaceId: string | null; keyId: string | null; clientId: string | null } = {
      workspaceId: null,
      keyId: null,
      clientId: null,
    };
    const ip = request.clientAddress;
    const addressRefusal = deps.addressLimiter.refusal(ip);
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    let sent: number | undefined;
    let recorded = true;

    try {
      // An endpoint serves its own route; any other request is an operation of the contract.
      const operation = endpoint ? undefined : deps.contract.match(method, url.pathname);
      route = operation ? operation.path : endpoint!.route;
      const authenticate = async (secret: string): Promise<Principal | Refusal> => {
        const screening = await deps.screen(secret);
        if (screening === "forged") return UNKNOWN_IN_MEMORY;
        // From a refused address, a credential the screen cannot vouch for is taken from memory only.
        if (addressRefusal && screening === "unscreened")
          return deps.authenticateFromMemory(secret) ?? UNKNOWN_IN_MEMORY;
        return deps.authenticate(secret);
      };
      const principal = await authenticateRequest(request.headers.authorization, authenticate, (refusal) => {
        caller = {
          workspaceId: refusal.workspaceId ?? null,
          keyId: refusal.keyId ?? null,
          clientId: refusal.clientId ?? null,
        };
      });
      caller = principal.client
        ? { workspaceId: principal.workspace.id, keyId: null, clientId: principal.client.id }
        : { workspaceId: principal.workspace.id, keyId: principal.key.id, clientId: null };

      if (!operation) {
        const result = await endpoint!.serve({ request, principal, requestId, log });
        recorded = result.recorded ?? true;
        sent = await deliver({
          requestId,
          status: result.status,
          headers: { ...headers, ...result.headers },
          body: result.body,
          failed: false,
        });
        return;
      }
      const operationId = operation.operationId as OperationId;
      if (request.tool !== undefined && request.tool !== operationId) {
        throw new HttpError(
          400,
          "invalid_request",
          `The arguments address another operation than the tool ${request.tool}.`,
        );
      }
      const limit = await deps.rateLimiter.consume(principal.key.id, principal.workspace.plan);
      Object.assign(headers, rateLimitHeaders(limit));
      if (!limit.allowed) {
        throw new HttpError(
          429,
          "key_rate_limited",
          `Too many requests from this key; retry after ${seconds(Math.max(1, limit.retryAfterSeconds ?? 1))}.`,
        );
      }
      requireScopes(operationMeta[operationId].scopes, principal);

      const body = await readBody(request, operation);
      // A multipart body is not read here: its handler streams it and checks its parts.
      const streamed = mediaTypeOf(request) === "multipart/form-data";
      const { params, query } = deps.contract.validate(
        {
          method,
          path: url.pathname,
          query: queryOf(url.searchParams, operation),
          headers: request.headers as Record<string, string>,
          body,
        },
        operation,
        { streamedBody: streamed },
      );
      const multipart: MultipartBody | undefined = streamed
        ? multipartBody(
            request.parts ?? httpParts(request.headers["content-type"]!, request.body),
            Number(request.headers["content-length"]) || undefined,
          )
        : undefined;
      const input = { path: params, query, header: declaredHeaders(request, operation), body: multipart ?? body };
      const context = deps.context(principal, requestId, log);
      const handler = deps.handlers[operationId] as (input: unknown, context: Context) => Promise<HandlerResult>;

      const key = request.headers["idempotency-key"];
      const result =
        operationMeta[operationId].idempotent && typeof key === "string"
          ? await idempotently(deps, {
              operationId,
              context,
              run: (effect) => handler(input, { ...context, effect }),
              scope: {
                workspaceId: principal.workspace.id,
                environment: principal.key.environment,
                key,
                method,
                path: url.pathname,
              },
              body: multipart ?? body,
            })
          : await handler(input, { ...context, effect: requestEffect(context.db).effect });
      sent = await deliver({
        requestId,
        status: result.status,
        headers: { ...headers, ...stringHeaders(result.headers) },
        body: result.body,
        failed: false,
      });
    } catch (error) {
      let failure = toHttpError(error);
      if (!failure) log.error({ err: error }, "unhandled error");
      else if (failure.code === "service_unavailable") log.warn({ err: error }, "database unavailable");
      if (failure && failedBeforeIdentifying(failure, route)) {
        if (addressRefusal) failure = addressLimited(addressRefusal);
        else deps.addressLimiter.failed(ip);
      }
      sent = await deliver(errorAnswer(failure ?? internalError(), requestId, headers));
    } finally {
      if (sent !== undefined) {
        const latencyMs = Math.round(performance.now() - started);
        const tool = request.tool ?? null;
        if (recorded)
          deps.audit.record({
            requestId,
            ...caller,
            method,
            route,
            path: url.pathname,
            status: sent,
            ip,
            userAgent: request.headers["user-agent"] ?? null,
            latencyMs,
            tool,
          });
        log.info({ method, route, ...(tool ? { tool } : {}), status: sent, latency_ms: latencyMs }, "request");
      }
    }
  }
  return { handle };
}

/** The answer to a failure: its status and headers over those already decided, in the error shape. */
function errorAnswer(failure: HttpError, requestId: string, headers: Record<string, string>): Answer {
  return {
    requestId,
    status: failure.status,
    headers: { ...headers, ...failure.headers },
    body: errorBody(failure.code, failure.message, failure.param, requestId),
    failed: true,
  };
}

/** A 503 for a request the audit log cannot take (database down, queue full); in the process log only. */
async function refuseUnrecorded(request: PipelineRequest, deliver: Deliver, logger: Logger): Promise<void> {
  const requestId = newId("req");
  logger.warn(
    { request_id: requestId, method: request.method, path: request.url.split("?")[0] },
    "refused unrecorded: audit log full and database unavailable",
  );
  await deliver(errorAnswer(serviceUnavailable(), requestId, { "X-Request-Id": requestId }));
}

const UNKNOWN_IN_MEMORY: Refusal = { refused: "invalid" };

/** A refusal that came before any key was identified: no route (404/405), or no valid credential (401). */
function failedBeforeIdentifying(failure: HttpError, route: string | null): boolean {
  if (route === null) return failure.status === 404 || failure.status === 405;
  return failure.status === 401 && failure.code !== "insufficient_scope";
}

function addressLimited(refusal: AddressRefusal): HttpError {
  const headers = rateLimitHeaders({
    allowed: false,
    retryAfterSeconds: refusal.retryAfterSeconds,
    windows: [refusal.window],
  });
  return new HttpError(
    429,
    "ip_rate_limited",
    `Too many requests without a valid API key from this address; retry after ${seconds(refusal.retryAfterSeconds)}.`,
    null,
    headers,
  );
}

/** The scopes of `required` that `granted` (a key's scopes) lacks. */
export function missingScopes(required: readonly string[], granted: readonly string[]): string[] {
  if (granted.includes("*")) return [];
  return required.filter((scope) => !granted.includes(scope));
}

function requireScopes(required: readonly string[], principal: Principal): void {
  const missing = missingScopes(required, principal.key.scopes);
  if (missing.length > 0) {
    throw new HttpError(
      401,
      "insufficient_scope",
      `This key lacks the scope ${missing.join(", ")} that this operation requires.`,
    );
  }
}

async function readBody(request: PipelineRequest, operation: Operation): Promise<unknown> {
  const requestBody = operation.requestBody as { required?: boolean; content: Record<string, unknown> } | undefined;
  if (!requestBody) return undefined;
  const accepted = Object.keys(requestBody.content);
  requireMediaType(request, accepted, requestBody.required ?? false);
  if (mediaTypeOf(request) !== "application/json") return undefined;
  const body = await readJsonBody(request, request.body);
  if (body === undefined && requestBody.required) {
    throw new HttpError(400, "invalid_request", "The request needs a JSON body.");
  }
  return body;
}

/**
 * The query as the contract reads it: every value of a parameter it declares as an array (`types=a&types=b`,
 * or just `types=a`), the last value of any other (as before arrays existed).
 */
function queryOf(search: URLSearchParams, operation: Operation): Record<string, string | string[]> {
  const arrays = new Set(
    ((operation.parameters ?? []) as { in: string; name: string; schema?: { type?: string } }[])
      .filter((parameter) => parameter.in === "query" && parameter.schema?.type === "array")
      .map((parameter) => parameter.name),
  );
  const query: Record<string, string | string[]> = Object.fromEntries(search);
  for (const name of arrays) if (search.has(name)) query[name] = search.getAll(name);
  return query;
}

/** The request headers the operation declares, under the names the contract gives them. */
function declaredHeaders(request: PipelineRequest, operation: Operation): Record<string, string> {
  const header: Record<string, string> = {};
  for (const parameter of (operation.parameters ?? []) as { in: string; name: string }[]) {
    const value = parameter.in === "header" ? request.headers[parameter.name.toLowerCase()] : undefined;
    if (typeof value === "string") header[parameter.name] = value;
  }
  return header;
}

// ---------------------------------------------------------------------------------------------
// The HTTP transport

/** The pipeline as a node:http request listener. */
export function servingHttp(
  pipeline: Pipeline,
  clientAddress: (request: IncomingMessage) => string | null,
  eventStreams: EventStreamSettings = DEFAULT_EVENT_STREAM_SETTINGS,
) {
  return (request: IncomingMessage, response: ServerResponse): Promise<void> =>
    pipeline.handle(httpRequest(request, clientAddress), (answer) => writeAnswer(response, answer, eventStreams));
}

/** An HTTP request as the pipeline takes it, its body still unread. */
export function httpRequest(
  request: IncomingMessage,
  clientAddress: (request: IncomingMessage) => string | null,
): PipelineRequest {
  // Read now: once a response has finished, a socket closed after it (Connection: close) is
  // detached from the request (`request.socket` is null).
  return {
    method: request.method ?? "GET",
    url: request.url ?? "/",
    headers: request.headers,
    body: request,
    clientAddress: clientAddress(request),
  };
}

/**
 * Writes an answer to the ServerResponse; resolves with the status once it has finished, undefined if
 * it closed first. An event stream counts as gone once it has begun (its audit row is its start).
 */
export async function writeAnswer(
  response: ServerResponse,
  answer: Answer,
  eventStreams: EventStreamSettings = DEFAULT_EVENT_STREAM_SETTINGS,
): Promise<number | undefined> {
  if (response.headersSent || response.destroyed) {
    // A download broke after it began: nothing more can be said on this response.
    if (isEventStream(answer.body)) answer.body.abandon();
    response.destroy();
    return undefined;
  }
  if (!answer.failed && isEventStream(answer.body)) {
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.statusCode = answer.status;
    writeEventStream(response, answer.body, eventStreams);
    return response.destroyed ? undefined : answer.status;
  }
  const gone = new Promise<number | undefined>((resolve) => {
    response.once("finish", () => resolve(response.statusCode));
    response.once("close", () => resolve(undefined));
  });
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.statusCode = answer.status;
  const body = answer.body;
  if (answer.failed) {
    // A body left unread is the server's to discard or close on (src/listen.ts).
    response.setHeader("Content-Type", "application/json");
    response.end(JSON.stringify(body));
  } else if (body === undefined) {
    response.end();
  } else if (isFileBody(body)) {
    // The contract serves every file as application/octet-stream; its name goes in the header.
    response.setHeader("Content-Type", "application/octet-stream");
    response.setHeader("Content-Disposition", contentDisposition(body.filename));
    if (body.content instanceof Uint8Array) response.end(body.content);
    else await pipeTo(body.content, response);
  } else if (body instanceof Uint8Array) {
    // JSON written ahead (the MCP tool list), which says its type.
    response.end(body);
  } else {
    response.setHeader("Content-Type", "application/json");
    response.end(JSON.stringify(body));
  }
  return gone;
}

async function pipeTo(source: Readable, response: ServerResponse): Promise<void> {
  const { pipeline } = await import("node:stream/promises");
  await pipeline(source, response);
}

/** "1 second", "30 seconds". */
function seconds(count: number): string {
  return count === 1 ? "1 second" : `${count} seconds`;
}
