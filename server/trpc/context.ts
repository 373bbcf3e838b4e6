// The context of one call, built the same way for the REST layer, the panel's tRPC endpoint
// and server components: the request's context (server/auth/request-context.ts, made once
// where the request enters) plus who calls and on which database.
import type { TActor } from "../auth/actor";
import type { TRequestContext } from "../auth/request-context";
import type { TDbOrTx } from "../db/client";

export type TResponseControl = {
  /** Overrides the procedure's declared success status (e.g. 202 for a pending approval). */
  status?: number;
  headers: Record<string, string>;
  /**
   * The answer is this file instead of the JSON envelope (a report's ?format=csv|xlsx, declared
   * by the meta's `files`): the REST layer sends it as is, with its Content-Type and an attachment
   * Content-Disposition. Other callers (the panel's tRPC endpoint, server components) keep the JSON.
   */
  file?: TResponseFile;
};

export type TResponseFile = { contentType: string; filename: string; body: string | Uint8Array };

export type TContext = TRequestContext & {
  db: TDbOrTx;
  actor: TActor;
  response: TResponseControl;
};

export function createContext(request: TRequestContext, call: { db: TDbOrTx; actor: TActor }): TContext {
  // Field by field (not a spread): one shape for every context, built on every call.
  return {
    requestId: request.requestId,
    ip: request.ip,
    userAgent: request.userAgent,
    clock: request.clock,
    log: request.log,
    db: call.db,
    actor: call.actor,
    response: { headers: {} },
  };
}
