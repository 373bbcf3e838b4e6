// The typed client of the /v1 REST API: openapi-fetch over the types generated from the served
// OpenAPI document (client/schema.d.ts, `npm run client:generate`). Every path, parameter, body
// and answer is the document's, so a call the document does not describe fails the type check.
// This folder imports nothing of the server: an agent's codebase can copy it as it is.
//
//   const finance = createFinanceClient({ baseUrl: "http://localhost:3000", token: "agt_…" });
//   const me = await unwrap(finance.GET("/v1/agents/me"));
//   const decision = await finance.POST("/v1/agent-decisions", {
//     params: { header: idempotent() },
//     body: { business_id, title: "Pause campaign 7", reason: "ROAS under 1 for a week" },
//   });
import createClient, { type Client } from "openapi-fetch";
import { GENERATED_CONTRACT_VERSION } from "./contract-version.js";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export { GENERATED_CONTRACT_VERSION };

/** The client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` (and `use` for middleware) of openapi-fetch. */
export type TFinanceClient = Client<paths>;
/** The contract's error body (Errors): `{ error: { code, message, details?, request_id } }`. */
export type TApiErrorBody = components["schemas"]["Error"];
export type TErrorCode = TApiErrorBody["error"]["code"];
/** A held write's approval (HTTP 202): the owner decides it. */
export type TPendingApproval = { id: string; status: "pending" };

export type TFinanceClientOptions = {
  /** The service's origin, e.g. `http://localhost:3000` (the paths begin with /v1). */
  baseUrl: string;
  /** The bearer: an agent's `agt_…` token, an owner's `ses_…` session token (or the static owner token). */
  token?: string;
  /** The fetch to send with (default: the global fetch). Tests pass the in-process app's handler. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Sent as X-Service-Contract-Min on every request (Versioning 3): a server speaking an older
   * contract answers 426 contract_too_old instead of answers this client's types do not describe.
   * Default: the version the types were generated from; null sends none.
   */
  contractMin?: string | null;
  /** More headers for every request. */
  headers?: Record<string, string>;
};

export function createFinanceClient(options: TFinanceClientOptions): TFinanceClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const contractMin = options.contractMin === undefined ? GENERATED_CONTRACT_VERSION : options.contractMin;
  if (contractMin !== null) headers["X-Service-Contract-Min"] = contractMin;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** A fresh Idempotency-Key (a UUID; the contract allows up to 128 characters). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The header a write needs, for `params.header`: `{ "Idempotency-Key": key }`. Keep the key to
 * retry the same write: the same key with the same body is answered once (a replay carries
 * Idempotent-Replayed: true); the same key with another body is 409 idempotency_conflict.
 */
export function idempotent(key: string = newIdempotencyKey()): { "Idempotency-Key": string } {
  return { "Idempotency-Key": key };
}

/** An answer that is not a success, with the contract's error body read into fields. */
export class FinanceApiError extends Error {
  readonly status: number;
  /** The contract's code, or "unknown" when the body is not the contract's error body (a proxy's page). */
  readonly code: TErrorCode | "unknown";
  readonly details: unknown;
  /** The body's request_id (else the X-Request-Id header): quote it when reporting a problem. */
  readonly requestId: string | null;
  /** Retry-After in seconds (429), or null. */
  readonly retryAfterSeconds: number | null;
  readonly body: unknown;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body.error : null;
    super(error ? `${response.status} ${error.code}: ${error.message}` : `HTTP ${response.status}`);
    this.name = "FinanceApiError";
    this.status = response.status;
    this.code = error?.code ?? "unknown";
    this.details = error?.details;
    this.requestId = error?.request_id ?? response.headers.get("x-request-id");
    this.retryAfterSeconds = retryAfterSeconds(response);
    this.body = body;
    this.response = response;
  }

  /** Whether sending the same request again (with the same Idempotency-Key) may succeed: 429 and 5xx. */
  get retryable(): boolean {
    return isRetryableStatus(this.status);
  }
}

export function isErrorBody(body: unknown): body is TApiErrorBody {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error === "object" && error !== null && typeof error.code === "string" && typeof error.message === "string";
}

/** An openapi-fetch answer: `data` on a success, `error` (the parsed body) otherwise. */
type TAnswer<TData> = { data?: TData; error?: unknown; response: Response };

/** The success body of `call`, or a FinanceApiError for any other answer. */
export async function unwrap<TData>(call: Promise<TAnswer<TData>> | TAnswer<TData>): Promise<TData> {
  const answer = await call;
  if (answer.error !== undefined || !answer.response.ok) throw new FinanceApiError(answer.response, answer.error);
  return answer.data as TData;
}

/**
 * The approval of a held write (202 `{ data: { approval: { id, status: "pending" } } }`), or null
 * when the write ran (201/200) or failed. A 202 is a success and is never retried.
 */
export function heldApproval(answer: TAnswer<unknown>): TPendingApproval | null {
  if (answer.response.status !== 202) return null;
  const approval = (answer.data as { data?: { approval?: TPendingApproval } } | undefined)?.data?.approval;
  return approval && typeof approval.id === "string" ? approval : null;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function retryAfterSeconds(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export type TRetryOptions = {
  /** Attempts in all, the first included (default 4). */
  attempts?: number;
  /** The wait before the n-th retry (from 1) when the answer has no Retry-After, in ms (default 500 × 2^(n−1)). */
  backoffMs?: (retry: number) => number;
  /** The longest wait honoured, in ms (default 60 s). */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

/**
 * Sends `send()` again after a 429 (waiting Retry-After) or a 5xx (backing off), up to
 * `attempts` times, and answers the last answer. `send` must make the SAME request each time:
 * build a write's Idempotency-Key once, outside it, so a write that did happen is replayed
 * rather than done twice. A network failure (fetch throws) is retried the same way.
 */
export async function withRetries<TResult extends { response: Response }>(
  send: () => Promise<TResult>,
  options: TRetryOptions = {},
): Promise<TResult> {
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoff = options.backoffMs ?? ((retry) => 500 * 2 ** (retry - 1));
  const maxDelay = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt += 1) {
    let result: TResult;
    try {
      result = await send();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(Math.min(backoff(attempt), maxDelay));
      continue;
    }
    if (!isRetryableStatus(result.response.status) || attempt >= attempts) return result;
    const after = retryAfterSeconds(result.response);
    await sleep(Math.min(after === null ? backoff(attempt) : after * 1000, maxDelay));
  }
}
