// Who a service acts for: the owner whose data it touches, the actor doing it (for audit and
// limits), the request it belongs to and the time it runs at (the request's clock, read once:
// "today" in a write is the owner's day of this instant, never the wall clock's).
import { AppError } from "../errors/app-error";
import type { TClock } from "../shared/clock";
import type { TActor, TAgentActor, TOwnerActor } from "./actor";

export type TCaller = { ownerId: string; actor: TOwnerActor | TAgentActor; requestId: string; now: Date };

export function callerOf(ctx: { actor: TActor; requestId: string; clock: TClock }): TCaller {
  const { actor } = ctx;
  if (actor.type !== "owner" && actor.type !== "agent") throw new AppError("unauthenticated");
  return { ownerId: actor.ownerId, actor, requestId: ctx.requestId, now: ctx.clock.now() };
}
