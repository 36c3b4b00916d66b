// What the domain reports when a request cannot be carried out: every error class the domain throws.
// No HTTP here: one table maps each kind to its status and error code (src/http/errors.ts), from
// which the API, the console and OAuth answer it.

/** A domain error, named after its class (`NotFoundError`, …) so logs tell the kinds apart. */
class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A domain error that may name the input it is about: the API error's `param`. */
class ParamError extends DomainError {
  readonly param: string | null;
  constructor(message: string, param: string | null = null) {
    super(message);
    this.param = param;
  }
}

/** The resource does not exist in the caller's workspace and environment. */
export class NotFoundError extends ParamError {}

/** The resource's current state forbids the operation. */
export class ConflictError extends ParamError {}

/** The input is well-formed by the contract but breaks a rule the contract cannot express. */
export class InvalidInputError extends ParamError {}

/** The caller is known but its role does not allow the action (a member creating keys, say). */
export class ForbiddenError extends DomainError {}

/** The caller's scopes do not allow what it asked for (an event type it may not read, say). */
export class ScopeError extends ParamError {}

/** The caller already has as many event streams open as it may. */
export class TooManyStreamsError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** This process is stopping and takes no new long-lived work (an event stream): ask another replica. */
export class StoppingError extends DomainError {}

/** The content of an upload exceeds the largest file a project may hold. */
export class FileTooLargeError extends DomainError {
  readonly limit: number;
  constructor(limit: number) {
    super(`The file exceeds the upload limit of ${limit} bytes (25 MiB).`);
    this.limit = limit;
  }
}

/** A webhook URL's host resolves to an address deliveries may not reach (a private network, say). */
export class RefusedAddressError extends DomainError {}
