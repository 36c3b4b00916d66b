// What the domain reports when a request cannot be carried out. No HTTP here: the HTTP pipeline
// maps each kind to its status and error code (src/http/errors.ts).

/** The resource does not exist in the caller's workspace and environment. */
export class NotFoundError extends Error {
  readonly param: string | null;
  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = "NotFoundError";
    this.param = param;
  }
}

/** The resource's current state forbids the operation. */
export class ConflictError extends Error {
  readonly param: string | null;
  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = "ConflictError";
    this.param = param;
  }
}

/** The input is well-formed by the contract but breaks a rule the contract cannot express. */
export class InvalidInputError extends Error {
  readonly param: string | null;
  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = "InvalidInputError";
    this.param = param;
  }
}

/** The caller is known but its role does not allow the action (a member creating keys, say). */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** The caller's scopes do not allow what it asked for (an event type it may not read, say). */
export class ScopeError extends Error {
  readonly param: string | null;
  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = "ScopeError";
    this.param = param;
  }
}

/** The caller already has as many event streams open as it may. */
export class TooManyStreamsError extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.name = "TooManyStreamsError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** This process is stopping and takes no new long-lived work (an event stream): ask another replica. */
export class StoppingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoppingError";
  }
}
