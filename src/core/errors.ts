/**
 * The errors a user can cause, as values with names. Each carries a stable `code` that clients
 * may match on and a message that says what to fix. The HTTP layer maps the classes to status
 * codes in one place (src/server/plugins/errors.ts); core code never thinks in HTTP.
 */
export abstract class SluiceError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "gone"
  | "too_large"
  | "rate_limited"
  | "unavailable";

/** The request's input is wrong: a missing or malformed parameter. */
export class InvalidInputError extends SluiceError {
  readonly kind = "invalid";
  constructor(message: string, code = "invalid_request") {
    super(code, message);
  }
}

/** No API key, or one that is unknown or revoked. */
export class UnauthenticatedError extends SluiceError {
  readonly kind = "unauthenticated";
  constructor(message: string) {
    super("unauthorized", message);
  }
}

/** The key is valid but its account may not do this. */
export class ForbiddenError extends SluiceError {
  readonly kind = "forbidden";
  constructor(message: string, code = "forbidden") {
    super(code, message);
  }
}

/** Unknown id, or one that belongs to another account: both look the same to the caller. */
export class NotFoundError extends SluiceError {
  readonly kind = "not_found";
  constructor(resource: string, id: string) {
    super("not_found", `No ${resource} with id '${id}' in this account`);
  }
}

/** The request conflicts with the current state of a resource. */
export class ConflictError extends SluiceError {
  readonly kind = "conflict";
}

/** What was asked for existed, but is over for good (a used or expired resume URL). */
export class GoneError extends SluiceError {
  readonly kind = "gone";
}

/** The request's body is over a limit of its own. */
export class TooLargeError extends SluiceError {
  readonly kind = "too_large";
}

/** The database or another dependency does not answer. */
export class UnavailableError extends SluiceError {
  readonly kind = "unavailable";
}

/** Too many requests for this API key; `retryAfterSeconds` says when to try again. */
export class RateLimitedError extends SluiceError {
  readonly kind = "rate_limited";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("rate_limited", message);
  }
}
