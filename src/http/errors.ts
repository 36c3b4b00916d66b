// The one error shape of the contract, and the one table from each kind of failure to its status and
// code. Every face answers from that table in its own shape: the API in the contract's error shape
// (toHttpError), the console as a page or a form's message, OAuth as an RFC 6749 error.
import type { Duplex } from "node:stream";
import type { components } from "../../generated/schema.d.ts";
import {
  ConflictError,
  FileTooLargeError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  RefusedAddressError,
  ScopeError,
  StoppingError,
  TooManyStreamsError,
} from "../domain/errors.ts";
import { newId } from "../storage/ids.ts";
import { isStorageUnavailable } from "../storage/unavailable.ts";

export type ErrorCode = components["schemas"]["ErrorCode"];
export type ErrorBody = components["schemas"]["Error"];

/** A failure the pipeline answers directly, with its status, code and extra headers. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    param: string | null = null,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.param = param;
    this.headers = headers;
  }
}

/**
 * The request's body could not be received as sent: cut short, malformed or too large. Such a
 * refusal comes before anything is carried out, so it is never stored for an Idempotency-Key.
 */
export class BodyError extends HttpError {}

export function errorBody(code: ErrorCode, message: string, param: string | null, requestId: string): ErrorBody {
  return { error: { code, message, param, request_id: requestId } };
}

/** Seconds a client is asked to wait while the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

interface DomainErrorRow {
  readonly type: abstract new (...args: never[]) => Error;
  readonly status: number;
  readonly code: ErrorCode;
  /** Headers the answer needs besides (a Retry-After). */
  readonly headers: (error: Error) => Record<string, string>;
}

/** A row of the table, its `headers` typed by the row's own class (only its instances reach them). */
function row<E extends Error>(
  type: abstract new (...args: never[]) => E,
  status: number,
  code: ErrorCode,
  headers: (error: E) => Record<string, string> = () => ({}),
): DomainErrorRow {
  return { type, status, code, headers: headers as (error: Error) => Record<string, string> };
}

const retryAfter = (seconds: number) => ({ "Retry-After": String(seconds) });

/**
 * The status and code of every error class the domain throws. A role that does not allow an action
 * is 403 `forbidden` (as Stripe and GitHub answer a known caller without the permission); scopes
 * a key lacks stay 401 `insufficient_scope`, as the service description has it.
 */
const DOMAIN_ERRORS: readonly DomainErrorRow[] = [
  row(InvalidInputError, 400, "invalid_request"),
  row(RefusedAddressError, 400, "invalid_request"),
  row(ScopeError, 401, "insufficient_scope"),
  row(ForbiddenError, 403, "forbidden"),
  row(NotFoundError, 404, "not_found"),
  row(ConflictError, 409, "conflict"),
  row(FileTooLargeError, 413, "payload_too_large"),
  row(TooManyStreamsError, 429, "too_many_streams", (error) => retryAfter(error.retryAfterSeconds)),
  row(StoppingError, 503, "service_unavailable", () => retryAfter(UNAVAILABLE_RETRY_AFTER_SECONDS)),
];

/** A domain error's status, code, message, param and headers, from the table; undefined for anything else. */
export function domainFailure(error: unknown): HttpError | undefined {
  const found = DOMAIN_ERRORS.find((entry) => error instanceof entry.type);
  if (!found) return undefined;
  const failure = error as Error & { param?: string | null };
  return new HttpError(found.status, found.code, failure.message, failure.param ?? null, found.headers(failure));
}

/**
 * What the API answers a failure with: an HttpError as it was thrown, a domain error as the table
 * says, 503 for an unreachable database; undefined for anything else, which is a bug (500).
 */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isStorageUnavailable(error)) return serviceUnavailable();
  return domainFailure(error);
}

/** The database cannot be reached: the request may be sent again (a create with its Idempotency-Key). */
export const serviceUnavailable = () =>
  new HttpError(
    503,
    "service_unavailable",
    `The service cannot reach its database right now. Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds (a create with the same Idempotency-Key).`,
    null,
    { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );

export const internalError = () =>
  new HttpError(
    500,
    "internal_error",
    "Something went wrong on our side. Retry later; quote the request_id if it persists.",
  );

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
};

/**
 * The `clientError` listener of the API's server: answers, in the error shape, what Node refused
 * before it became a request (headers over the size cap: 431; headers or body not in within their
 * timeout: 408; malformed HTTP: 400), then closes the connection. Nothing is answered when a
 * response has already begun on the connection or the client has gone.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, maxHeaderSize: number): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "invalid_request",
          `The request's headers are larger than the ${maxHeaderSize} bytes this server accepts.`,
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [
            408,
            "invalid_request",
            "The request did not arrive in time: its headers or its body were too slow. Send it again.",
          ]
        : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
          ? [413, "payload_too_large", "The request's chunk extensions are too large."]
          : [400, "invalid_request", "This is not a well-formed HTTP/1.1 request."];
  const requestId = newId("req");
  const body = JSON.stringify(errorBody(code, message, null, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    // Written: close at once rather than wait for a client that may never close its side.
    () => socket.destroy(),
  );
}
