// The one request pipeline. Every request passes, in order:
//   request id → route (404/405) → authenticate (401) → rate limit (429) → scope (401
//   insufficient_scope) → body (415/413/400) → validate against the contract (400) → idempotency
//   (replay/409/422) → handler (its writes and its stored answer in one transaction) → response
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
import { operationMeta, type Handlers, type MultipartBody, type OperationId } from "../../generated/handlers.ts";
import type { Context } from "../handlers/context.ts";
import type { AnswerSeal } from "../handlers/stored-answers.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import type { Principal, Refusal } from "../domain/keys.ts";
import type { Contract } from "./contract.ts";
import { mediaTypeOf, readJsonBody, requireMediaType } from "./body.ts";
import { BodyError, HttpError, errorBody, internalError, serviceUnavailable, toHttpError } from "./errors.ts";
import { authenticateRequest } from "./auth.ts";
import { rateLimitHeaders, type KeyRateLimiter } from "./rate-limit/index.ts";
import type { AddressLimiter, AddressRefusal } from "./address-limit.ts";
import * as idempotency from "./idempotency.ts";
import { fingerprintOf } from "./multipart.ts";
import { requestTransaction } from "./request-transaction.ts";
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
  idempotencyDb: Database;
  /** What an operation's stored answer keeps in place of a secret it carried. */
  answerSeals: Partial<Record<OperationId, AnswerSeal>>;
  /** Idempotency claims' lock timeout (default IDEMPOTENCY_LOCK_TIMEOUT_MS); tests shorten it. */
  idempotencyOptions?: idempotency.IdempotencyOptions;
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
      const multipart: MultipartBody | undefined = streamed ? { contentType: request.headers["content-type"]!, stream: request } : undefined;
      const input = { path: params, query, header: declaredHeaders(request, operation), body: multipart ?? body };
      const context = deps.context(principal, requestId, log);
      const handler = deps.handlers[operationId] as (input: unknown, context: Context) => Promise<HandlerResult>;

      const key = request.headers["idempotency-key"];
      const result =
        operationMeta[operationId].idempotent && typeof key === "string"
          ? await idempotently(deps, {
              operationId,
              context,
              run: (db) => handler(input, { ...context, db }),
              scope: { workspaceId: principal.workspace.id, environment: principal.key.environment, key, method, path: url.pathname },
              body: multipart ?? body,
            })
          : await handler(input, context);
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

interface IdempotentCall {
  readonly operationId: OperationId;
  readonly context: Context;
  /** The handler, on the database it is given. */
  readonly run: (db: Database) => Promise<HandlerResult>;
  readonly scope: Omit<idempotency.BeginInput, "requestHash">;
  /** The parsed JSON body, or the multipart body still to be read. */
  readonly body: unknown;
}

/**
 * Runs a creating request at most once per Idempotency-Key and replays its stored answer after. The
 * handler's writes and the stored answer commit in one transaction (request-transaction.ts); while
 * the handler runs, its claim is renewed, so a long upload keeps it. Not stored: server errors, and
 * refusals of a body that could not be received (cut short, malformed, too large) — the retry then
 * runs again. A multipart body is told apart by its fingerprint (its parts' content, hashed while
 * read), so its hash is compared once it has been read.
 */
async function idempotently(deps: PipelineDeps, call: IdempotentCall): Promise<HandlerResult> {
  const { idempotencyDb: db, answerSeals, idempotencyOptions: options } = deps;
  const { method, path } = call.scope;
  const multipart = isMultipart(call.body) ? call.body : undefined;
  const hashOf = (body: unknown) => idempotency.requestHash({ method, path, body });
  const seal = answerSeals[call.operationId];

  const claim = await idempotency.begin(db, { ...call.scope, requestHash: multipart ? null : hashOf(call.body) }, options);
  switch (claim.kind) {
    case "replay": {
      if (multipart && hashOf({ multipart: await fingerprintOf(multipart) }) !== claim.requestHash) throw keyReused();
      const body = seal && claim.status < 300 ? await seal.open(claim.body, call.context) : claim.body;
      return { status: claim.status, headers: { ...claim.headers, [idempotency.IDEMPOTENT_REPLAYED_HEADER]: "true" }, body };
    }
    case "in_use":
      throw keyInUse();
    case "mismatch":
      throw keyReused();
  }

  const { lease } = claim;
  const work = requestTransaction(db);
  const renewal = keepClaimed(db, lease, deps.logger, options);
  let result: HandlerResult;
  try {
    result = await call.run(work.db);
  } catch (error) {
    await work.rollback();
    const failure = toHttpError(error);
    if (!failure || failure.status >= 500 || failure instanceof BodyError) {
      await release(db, lease);
      throw error;
    }
    result = { status: failure.status, headers: failure.headers, body: errorBody(failure.code, failure.message, failure.param, call.context.requestId) };
  } finally {
    renewal.stop();
  }
  const fingerprint = multipart ? multipart.fingerprint : undefined;
  if (result.status >= 500 || (multipart && fingerprint === undefined)) {
    await work.rollback();
    await release(db, lease);
    return result;
  }
  const stored = {
    status: result.status,
    headers: stringHeaders(result.headers),
    body: seal && result.status < 300 ? seal.seal(result.body) : result.body,
  };
  try {
    await work.commit(async (tx) => {
      const requestHash = multipart ? hashOf({ multipart: fingerprint }) : undefined;
      if (!(await idempotency.complete(tx, lease, stored, { ...options, requestHash }))) throw new LeaseLost();
    });
  } catch (error) {
    // Held past its lease, the key went to a retry, which carries the request out instead of this one.
    if (error instanceof LeaseLost) throw keyInUse();
    await release(db, lease);
    throw error;
  }
  return result;
}

class LeaseLost extends Error {}

/**
 * Frees the key of a request that stored nothing, so a retry may run at once. Best effort: when the
 * database cannot be reached, the claim frees itself when its lease runs out.
 */
async function release(db: Database, lease: idempotency.IdempotencyLease): Promise<void> {
  await idempotency.abandon(db, lease).catch(() => undefined);
}

const keyInUse = () =>
  new HttpError(409, "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry later.", "Idempotency-Key");

const keyReused = () =>
  new HttpError(422, "idempotency_key_reused", "This Idempotency-Key was used with a different request in the last 24 hours; use a new key.", "Idempotency-Key");

function isMultipart(body: unknown): body is MultipartBody {
  return typeof (body as MultipartBody | undefined)?.stream?.pipe === "function";
}

/**
 * Renews a claim every third of its lock timeout until stopped; a renewal that fails is tried again
 * at the next. Not awaited: on PGlite a renewal waits for the transaction the handler holds open.
 */
function keepClaimed(db: Database, lease: idempotency.IdempotencyLease, logger: Logger, options: idempotency.IdempotencyOptions = {}) {
  const timer = setInterval(
    () => idempotency.renew(db, lease, options).catch((error: unknown) => logger.warn({ err: error }, "idempotency claim not renewed")),
    (options.lockTimeoutMs ?? idempotency.IDEMPOTENCY_LOCK_TIMEOUT_MS) / 3,
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
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
