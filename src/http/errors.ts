// The one error shape of the contract, and the mapping of every failure to it.
import type { components } from "../../generated/schema.d.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.ts";

export type ErrorCode = components["schemas"]["ErrorCode"];
export type ErrorBody = components["schemas"]["Error"];

/** A failure the pipeline answers directly, with its status, code and extra headers. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  constructor(status: number, code: ErrorCode, message: string, param: string | null = null, headers: Record<string, string> = {}) {
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

/** Maps what a handler or the domain threw to an HttpError; anything unknown is a bug (500). */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof NotFoundError) return new HttpError(404, "not_found", error.message, error.param);
  if (error instanceof ConflictError) return new HttpError(409, "conflict", error.message, error.param);
  if (error instanceof InvalidInputError) return new HttpError(400, "invalid_request", error.message, error.param);
  return undefined;
}

export const internalError = () =>
  new HttpError(500, "internal_error", "Something went wrong on our side. Retry later; quote the request_id if it persists.");
