// The owner's own profile (the Me resource).
import { actorRef, type TOwnerActor } from "../auth/actor";
import type { TDbOrTx } from "../db/client";
import type { Owner } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import type { TMe, TUpdateMeInput } from "./me.schema";

function toMeDto(owner: Owner, actor: TOwnerActor): TMe {
  return {
    id: owner.id,
    email: owner.email,
    name: owner.name,
    base_currency: owner.baseCurrency,
    timezone: owner.timezone,
    locale: owner.locale,
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

export async function getMe(db: TDbOrTx, actor: TOwnerActor): Promise<TMe> {
  return toMeDto(await requireOwner(db, actor.ownerId), actor);
}

export async function updateMe(db: TDbOrTx, actor: TOwnerActor, input: TUpdateMeInput): Promise<TMe> {
  if (input.base_currency) assertKnownCurrency(input.base_currency, "base_currency");
  const owner = await db.owner.update({
    where: { id: actor.ownerId },
    data: {
      name: input.name,
      timezone: input.timezone,
      locale: input.locale ? Intl.getCanonicalLocales(input.locale)[0] : undefined,
      // Setting the base currency explicitly is what confirms it (onboarding).
      ...(input.base_currency ? { baseCurrency: input.base_currency, baseCurrencyConfirmed: true } : {}),
    },
  });
  return toMeDto(owner, actor);
}
