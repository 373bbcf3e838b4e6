// Who reads a read model (pinned-wave3 §2.1, additive to Authentication 10: owners keep every
// right): the owner, or an agent whose grant of the operation's scope covers the scope read (the
// whole owner: only a grant on `*`). 404 before 403 (pinned-wave2 §1.2): the caller resolves the
// scope's ids for the owner first, then asks this check, so another owner's id never reaches it.
import { requireGrant, requireOneOfGrants, type TAccessCall } from "../access/check-access";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import type { TScope } from "../auth/scopes";
import type { TDbOrTx } from "../db/client";
import type { TReadScope } from "./scope";

/** What a procedure hands a read model: who calls, and for an agent the operation for its audit entry. */
export type TReadCaller = { actor: TOwnerActor | TAgentActor; call: TAccessCall };

/**
 * Passes for the owner; for an agent, passes when a grant of `scopes` (one of them when several)
 * covers `scope`, else 403 scope_denied naming the scope and the resource (audited).
 */
export async function authorizeRead(caller: TReadCaller, scopes: TScope | readonly TScope[], scope: TReadScope): Promise<void> {
  if (caller.actor.type !== "agent") return;
  if (typeof scopes === "string") await requireGrant(caller.actor, scopes, scope, caller.call);
  else await requireOneOfGrants(caller.actor, scopes, scope, caller.call);
}

/** A procedure's context as a read caller. */
export function readCaller(ctx: { actor: TOwnerActor | TAgentActor; db: TDbOrTx; requestId: string }, path: string): TReadCaller {
  return { actor: ctx.actor, call: { operation: path, db: () => ctx.db, requestId: ctx.requestId } };
}
