// Who a service acts for: the owner whose data it touches, the actor doing it (for audit and
// limits) and the request it belongs to.
import { AppError } from "../errors/app-error";
import type { TActor, TAgentActor, TOwnerActor } from "./actor";

export type TCaller = { ownerId: string; actor: TOwnerActor | TAgentActor; requestId: string };

export function callerOf(ctx: { actor: TActor; requestId: string }): TCaller {
  const { actor } = ctx;
  if (actor.type !== "owner" && actor.type !== "agent") throw new AppError("unauthenticated");
  return { ownerId: actor.ownerId, actor, requestId: ctx.requestId };
}
