// The one error class. Services throw AppError with a contract code; the REST layer turns it
// into the contract's error body at the code's HTTP status, the panel's tRPC client reads
// the same code from the error's data.

/** Every error code of the contract (section Errors), with its HTTP status. */
export const ERROR_CODES = {
  validation_error: { status: 400, message: "The request failed validation." },
  missing_idempotency_key: { status: 400, message: "This write needs an Idempotency-Key header." },
  missing_reason: { status: 400, message: "An agent write needs a reason of at least 3 characters." },
  unauthenticated: { status: 401, message: "Missing or malformed Authorization: Bearer header." },
  token_revoked: { status: 401, message: "This agent token was revoked." },
  token_expired: { status: 401, message: "This agent token has expired." },
  session_expired: { status: 401, message: "The session has expired; sign in again." },
  session_revoked: { status: 401, message: "The session was revoked; sign in again." },
  login_token_invalid: { status: 401, message: "The login link is invalid, used or expired." },
  scope_denied: { status: 403, message: "No grant for this scope on this resource." },
  limit_exceeded: { status: 403, message: "The grant's daily or monthly limit is exceeded." },
  agent_suspended: { status: 403, message: "The owner suspended this agent." },
  plan_limit_exceeded: { status: 403, message: "The plan's limit was reached." },
  plan_expired: { status: 403, message: "The plan has expired." },
  trial_expired: { status: 403, message: "The trial has expired." },
  ip_not_allowed: { status: 403, message: "Requests from this address are not allowed." },
  csrf_rejected: { status: 403, message: "Cross-site request refused." },
  not_found: { status: 404, message: "The resource does not exist." },
  // Additive to the contract's table (Versioning 1 allows new codes): a known path called
  // with a method it does not have.
  method_not_allowed: { status: 405, message: "This path does not support the method." },
  idempotency_conflict: { status: 409, message: "This Idempotency-Key was used with another request." },
  state_conflict: { status: 409, message: "The record's state does not allow this action." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  unsupported_media_type: { status: 415, message: "Unsupported media type." },
  allocation_sum_invalid: { status: 422, message: "Allocation shares must sum to exactly 10000 bps." },
  // Additive (issue 32, pinned-wave3 §1.4): an aggregate's or a simulation's exact result does
  // not fit a JSON number; details.field names it. Never rounded, never a 500.
  amount_out_of_range: {
    status: 422,
    message: "A figure of this answer is beyond the exact integer range ±(2^53 − 1) minor units.",
  },
  capacity_exceeded: { status: 422, message: "Usage exceeds the subscription's capacity." },
  currency_mismatch: { status: 422, message: "The amounts must share a currency." },
  currency_unsupported: { status: 422, message: "The rate source does not cover this currency." },
  fx_unavailable: { status: 422, message: "No exchange rate is available; nothing was written." },
  webhook_url_invalid: { status: 422, message: "The webhook URL was refused." },
  contract_too_old: { status: 426, message: "The server's contract version is older than the client requires." },
  rate_limited: { status: 429, message: "Too many requests; retry after the Retry-After delay." },
  internal_error: { status: 500, message: "Something went wrong on our side; retry with the same Idempotency-Key." },
} as const satisfies Record<string, { status: number; message: string }>;

/** internal_error's message where no Idempotency-Key applies (reads, webhooks and other exempt routes). */
export const INTERNAL_ERROR_WITHOUT_KEY_MESSAGE = "Something went wrong on our side; retry later and quote request_id.";

export type TErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as TErrorCode[];

export class AppError extends Error {
  readonly code: TErrorCode;
  readonly details?: unknown;
  /** Extra response headers (Retry-After, Allow, …). */
  readonly headers?: Record<string, string>;

  constructor(
    code: TErrorCode,
    message?: string,
    options?: { details?: unknown; headers?: Record<string, string>; cause?: unknown },
  ) {
    super(message ?? ERROR_CODES[code].message, { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options?.details;
    this.headers = options?.headers;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  static notFound(what = "resource"): AppError {
    return new AppError("not_found", `No such ${what}.`);
  }

  /** A validation error naming one field, shaped like zod's issues. */
  static invalidField(field: string, message: string): AppError {
    return AppError.invalidFields([{ path: field, message }]);
  }

  /** A validation error naming every field at once (the message quotes the first). */
  static invalidFields(issues: [{ path: string; message: string }, ...Array<{ path: string; message: string }>]): AppError {
    return new AppError("validation_error", `${issues[0].path}: ${issues[0].message}`, { details: { issues } });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
