// What a /v1 call produced, before the per-request parts (request id, common headers) are
// added. Idempotent replays store and replay exactly this.
import { ERROR_CODES, INTERNAL_ERROR_WITHOUT_KEY_MESSAGE, type AppError } from "../errors/app-error";
import { CONTRACT_VERSION } from "./contract";

export type TOutcome = {
  status: number;
  headers: Record<string, string>;
  /** envelope: `{ data, page? }` JSON; error: `{ error: {…} }` JSON; raw: sent as is. */
  kind: "envelope" | "error" | "raw";
  body: string;
  /** raw only: a binary body (an XLSX file), sent instead of `body`. */
  bytes?: Uint8Array;
  /** raw only: a body streamed as it is made (the ledger export), sent instead of `body`. Never stored for replay. */
  stream?: ReadableStream<Uint8Array>;
};

export function envelopeOutcome(status: number, payload: unknown, headers: Record<string, string> = {}): TOutcome {
  return { status, headers, kind: "envelope", body: JSON.stringify(payload) };
}

/**
 * `keyed`: the request was one the Idempotency-Key applies to (a write of a non-exempt route).
 * Only then does internal_error's message advise retrying with the same key.
 */
export function errorOutcome(error: AppError, { keyed = false }: { keyed?: boolean } = {}): TOutcome {
  const message =
    error.code === "internal_error" && !keyed && error.message === ERROR_CODES.internal_error.message
      ? INTERNAL_ERROR_WITHOUT_KEY_MESSAGE
      : error.message;
  const body = {
    error: { code: error.code, message, ...(error.details === undefined ? {} : { details: error.details }) },
  };
  return { status: ERROR_CODES[error.code].status, headers: { ...error.headers }, kind: "error", body: JSON.stringify(body) };
}

/** Adds the request id to the body (envelope: `request_id`; error: `error.request_id`). */
function withRequestId(outcome: TOutcome, requestId: string): string {
  const id = JSON.stringify(requestId);
  if (outcome.kind === "envelope") {
    // The body is JSON.stringify of an object: splice instead of parsing it again.
    const inner = outcome.body.slice(1, -1);
    return `{${inner}${inner ? "," : ""}"request_id":${id}}`;
  }
  if (outcome.kind === "error") {
    const parsed = JSON.parse(outcome.body) as { error: Record<string, unknown> };
    parsed.error.request_id = requestId;
    return JSON.stringify(parsed);
  }
  return outcome.body;
}

/** The HTTP response: outcome + request id + the headers every /v1 response carries. */
export function toResponse(outcome: TOutcome, requestId: string, extraHeaders: Record<string, string>): Response {
  // Lower-case names, later ones replacing earlier ones (as Headers.set would), handed to the
  // Response as one record: it builds its Headers once.
  const headers: Record<string, string> = {};
  if (outcome.kind !== "raw") headers["content-type"] = "application/json; charset=utf-8";
  headers["cache-control"] = "no-store";
  for (const [name, value] of Object.entries(outcome.headers)) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;
  headers["x-request-id"] = requestId;
  headers["x-service-contract"] = CONTRACT_VERSION;
  const noBody = outcome.status === 204 || outcome.status === 304;
  const body = noBody
    ? null
    : (outcome.stream ??
      (outcome.bytes ? new Blob([outcome.bytes as Uint8Array<ArrayBuffer>]) : withRequestId(outcome, requestId)));
  return new Response(body, { status: outcome.status, headers });
}
