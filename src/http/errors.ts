// The one error shape of the contract, and the mapping of every failure to it.
import type { Duplex } from "node:stream";
import type { components } from "../../generated/schema.d.ts";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
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

/** Maps what a handler or the domain threw to an HttpError; anything unknown is a bug (500). */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isStorageUnavailable(error)) return serviceUnavailable();
  if (error instanceof NotFoundError) return new HttpError(404, "not_found", error.message, error.param);
  if (error instanceof ConflictError) return new HttpError(409, "conflict", error.message, error.param);
  if (error instanceof InvalidInputError) return new HttpError(400, "invalid_request", error.message, error.param);
  if (error instanceof StoppingError) {
    return new HttpError(503, "service_unavailable", error.message, null, {
      "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  if (error instanceof ScopeError) return new HttpError(401, "insufficient_scope", error.message, error.param);
  if (error instanceof TooManyStreamsError) {
    return new HttpError(429, "too_many_streams", error.message, null, {
      "Retry-After": String(error.retryAfterSeconds),
    });
  }
  return undefined;
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
