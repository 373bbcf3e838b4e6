// The context of one call, built the same way for the REST layer, the panel's tRPC endpoint
// and server components: the request's context (server/auth/request-context.ts, made once
// where the request enters) plus who calls and on which database. A procedure answers with its
// output only: the status of that answer and a file form of it are declared in its meta.
import type { TActor } from "../auth/actor";
import type { TRequestContext } from "../auth/request-context";
import type { TDbOrTx } from "../db/client";

export type TContext = TRequestContext & {
  db: TDbOrTx;
  actor: TActor;
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
  };
}
