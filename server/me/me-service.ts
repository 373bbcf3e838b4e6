// The owner's own profile (the Me resource).
import { actorRef, type TAgentActor, type TOwnerActor } from "../auth/actor";
import { recordAudit } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Owner } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { rebaseOwner } from "../fx/rebase-owner";
import { assertKnownCurrency } from "../shared/currencies";
import type { TAgentMe, TMe, TUpdateMeInput } from "./me.schema";

/** The owner's profile fields, shared by Me and the user of a new session. */
export function toOwnerProfile(owner: Owner) {
  return {
    id: owner.id,
    email: owner.email,
    name: owner.name,
    base_currency: owner.baseCurrency,
    timezone: owner.timezone,
    locale: owner.locale,
  };
}

function toMeDto(owner: Owner, actor: TOwnerActor): TMe {
  return {
    ...toOwnerProfile(owner),
    plan: owner.plan,
    plan_status: owner.planStatus,
    created_at: owner.createdAt.toISOString(),
    onboarding: { base_currency_confirmed: owner.baseCurrencyConfirmed },
    unread_notifications: 0, // notifications arrive with their own module
    actor: actorRef(actor) as TMe["actor"],
  };
}

async function requireOwner(db: TDbOrTx, ownerId: string): Promise<Owner> {
  const owner = await db.owner.findUnique({ where: { id: ownerId } });
  if (!owner) throw new AppError("unauthenticated", "The owner of this credential no longer exists.");
  return owner;
}

export async function getMe(db: TDbOrTx, actor: TOwnerActor | TAgentActor): Promise<TMe | TAgentMe> {
  const owner = await requireOwner(db, actor.ownerId);
  if (actor.type === "agent") {
    return {
      id: owner.id,
      base_currency: owner.baseCurrency,
      timezone: owner.timezone,
      plan: owner.plan,
      actor: { type: "agent", id: actor.agentId },
    };
  }
  return toMeDto(owner, actor);
}

export async function updateMe(db: TDbOrTx, actor: TOwnerActor, requestId: string, input: TUpdateMeInput): Promise<TMe> {
  if (input.base_currency) assertKnownCurrency(input.base_currency, "base_currency");
  return inTransaction(db, async (tx) => {
    const before = await tx.owner.findUniqueOrThrow({ where: { id: actor.ownerId }, select: { baseCurrency: true } });
    const owner = await tx.owner.update({
      where: { id: actor.ownerId },
      data: {
        name: input.name,
        timezone: input.timezone,
        locale: input.locale ? Intl.getCanonicalLocales(input.locale)[0] : undefined,
        // Setting the base currency explicitly is what confirms it (onboarding).
        ...(input.base_currency ? { baseCurrency: input.base_currency, baseCurrencyConfirmed: true } : {}),
      },
    });
    // A new base currency re-expresses the stored base amounts in it (server/fx/rebase-owner.ts),
    // after the owner row is updated (and so locked): no event can be written in between.
    const rebased =
      input.base_currency && input.base_currency !== before.baseCurrency
        ? { from: before.baseCurrency, to: input.base_currency, ...(await rebaseOwner(tx, owner.id, input.base_currency)) }
        : undefined;
    await recordAudit(tx, {
      ownerId: owner.id,
      actor,
      requestId,
      action: "me.updated",
      target: { type: "owner", id: owner.id },
      details: { fields: Object.keys(input), ...(rebased ? { base_currency_change: rebased } : {}) },
    });
    return toMeDto(owner, actor);
  });
}
