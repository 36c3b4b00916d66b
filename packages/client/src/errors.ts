// The client's errors: the API answered with an error status (`ApiError`), or no answer came
// (`ApiConnectionError`). Shared by the calls (index.ts) and the event stream (event-stream.ts).
import type { components } from "@project-builder/contract";
import { parseRetryAfter } from "./timing.ts";

type Schemas = components["schemas"];
type ErrorCode = Schemas["ErrorCode"];
type ErrorBody = Schemas["Error"];

/** Codes for a body that is not the contract's error shape (a proxy's 502 page), by HTTP status. */
const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: "invalid_request",
  401: "invalid_api_key",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  416: "range_not_satisfiable",
  422: "idempotency_key_reused",
  429: "key_rate_limited",
  503: "service_unavailable",
};

/** @internal */
export function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = body.error;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}

/**
 * The API answered with an error status (after the client's retries). `code`, `message`, `param`
 * and `request_id` are the contract's error fields; `body` is the answer's body as received (parsed
 * JSON, or text). A code newer than this client's contract is passed through as received (the
 * contract asks to treat unknown codes as their status says); a body that is not the contract's
 * error shape (e.g. a proxy's page) gets the code its status implies and the text as its message.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | null;
  /** The error's `request_id`, else the answer's `X-Request-Id`; quote it to support. */
  readonly request_id: Schemas["RequestId"] | null;
  readonly body: unknown;
  readonly headers: Headers;
  /** Seconds the server asked to wait (`Retry-After`, on 429 and 503), when it did. */
  readonly retryAfter: number | null;

  constructor(response: Response, body: unknown) {
    const detail = isErrorBody(body) ? body.error : undefined;
    const fallback = response.status >= 500 ? "internal_error" : "invalid_request";
    super(detail?.message ?? (typeof body === "string" && body ? body.slice(0, 500) : `HTTP ${response.status}`));
    this.status = response.status;
    this.code = detail?.code ?? CODE_BY_STATUS[response.status] ?? fallback;
    this.param = detail?.param ?? null;
    this.request_id = detail?.request_id ?? response.headers.get("x-request-id");
    this.body = body;
    this.headers = response.headers;
    this.retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  }
}

/**
 * No answer came: the connection failed or every attempt timed out, after the client's retries
 * (a request not safe to repeat is tried once). `cause` is the last attempt's error. A request the
 * caller aborted with its own `signal` throws the abort's reason instead.
 */
export class ApiConnectionError extends Error {
  override readonly name = "ApiConnectionError";
  readonly code = "connection_error";
  readonly method: string;
  readonly url: string;
  /** Attempts made, the first included. */
  readonly attempts: number;
  /** The last attempt ran out of `timeoutMs`. */
  readonly timedOut: boolean;

  constructor(request: Request, attempts: number, cause: unknown, timedOut: boolean) {
    const what = timedOut ? "timed out" : `failed (${cause instanceof Error ? cause.message : String(cause)})`;
    super(`${request.method} ${request.url} ${what} after ${attempts} attempt${attempts === 1 ? "" : "s"}`, { cause });
    this.method = request.method;
    this.url = request.url;
    this.attempts = attempts;
    this.timedOut = timedOut;
  }
}
