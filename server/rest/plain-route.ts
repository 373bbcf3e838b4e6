// Operations that are not JSON-in/JSON-out (signed webhooks, multipart, CSV, redirects, the
// OpenAPI document) are plain handlers. They sit beside the tRPC procedures in the same route
// table and go through the same REST layer: request id, contract headers, auth, rate limit,
// idempotency, error body.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { TActor } from "../auth/actor";
import type { TRequestContext } from "../auth/request-context";
import type { TDbOrTx } from "../db/client";
import type { TTransactionLimits } from "../db/transaction";
import type { TAccessRule, TDeprecation } from "../trpc/meta";
import type { TOutcome } from "./outcome";

export type THttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The request's context (request id, client IP, user agent, clock, logger) and the call's parts. */
export type TPlainRequest = TRequestContext & {
  req: Request;
  /** The database, opened on first use: the request's transaction when the route requires an Idempotency-Key. */
  getDb: () => Promise<TDbOrTx>;
  actor: TActor;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The raw body (webhook signatures are computed over these exact bytes). */
  rawBody: Buffer;
  /** What the route's `prepare` returned (undefined without one). */
  prepared?: unknown;
};

export type TPlainRoute = {
  method: THttpMethod;
  /** The full path with `{param}` segments, e.g. `/v1/webhooks/generic/{integration_id}`. */
  path: `/v1/${string}`;
  access: TAccessRule;
  idempotency?: "required" | "exempt";
  experimental?: boolean;
  deprecation?: TDeprecation;
  /** The answer carries a secret shown once: its replay copy is stored encrypted. */
  secretInResponse?: boolean;
  /** Body cap for this route; JSON routes default to 1 MB. */
  maxBodyBytes?: number;
  /** Limits of the write's one transaction (idempotency "required"), when the REST layer's default is too short. */
  transaction?: TTransactionLimits;
  /** Cross-origin calls allowed from LANDING_ORIGIN (cors.ts). */
  cors?: "landing";
  /** The operation in the OpenAPI document (responses, request body, parameters). */
  openapi: ZodOpenApiOperationObject;
  /**
   * Work that needs no transaction (reading an uploaded file), run once the caller is
   * authenticated and the body read, before a keyed write's transaction opens: slow work there
   * would hold a database connection. It runs before the route's access is checked, so it must
   * check the actor itself (and return undefined for one `handle` will refuse); what it throws
   * is the answer, and claims no Idempotency-Key. Its result reaches `handle` as `prepared`.
   */
  prepare?: (request: TPlainRequest) => Promise<unknown>;
  handle: (request: TPlainRequest) => Promise<TOutcome>;
};
