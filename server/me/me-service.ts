// The owner's own profile (the Me resource).
import { actorRef, type TAgentActor, type TOwnerActor } from "../auth/actor";
import { recordAudit } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Owner } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { todayUtc } from "../../lib/days";
import { resolveRatesSettled } from "../fx/fx-service";
import { assertAmountsFit, rebaseOwner } from "../fx/rebase-owner";
import { assertKnownCurrency } from "../shared/currencies";
import { countUnread } from "../notifications/notification-service";
import { effectiveStatus } from "../plans/plan-service";
import { isWaitlistReader } from "../waitlist/waitlist-service";
import type { TBaseCurrencyPreview } from "./base-currency-preview.schema";
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

function toMeDto(owner: Owner, actor: TOwnerActor, unreadNotifications: number, waitlistReader: boolean, now: Date): TMe {
  return {
    ...toOwnerProfile(owner),
    plan: owner.plan,
    // A trial past its end reads expired before the job (or a plan read) stores it.
    plan_status: effectiveStatus(owner, now),
    created_at: owner.createdAt.toISOString(),
    onboarding: { base_currency_confirmed: owner.baseCurrencyConfirmed },
    unread_notifications: unreadNotifications,
    waitlist_reader: waitlistReader,
    actor: actorRef(actor) as TMe["actor"],
  };
}

async function requireOwner(db: TDbOrTx, ownerId: string): Promise<Owner> {
  const owner = await db.owner.findUnique({ where: { id: ownerId } });
  if (!owner) throw new AppError("unauthenticated", "The owner of this credential no longer exists.");
  return owner;
}

export async function getMe(db: TDbOrTx, actor: TOwnerActor | TAgentActor, now: Date = new Date()): Promise<TMe | TAgentMe> {
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
  const [unread, reader] = await Promise.all([countUnread(db, owner.id), isWaitlistReader(db, owner.email)]);
  return toMeDto(owner, actor, unread, reader, now);
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
    // One after the other: a transaction runs one statement at a time.
    const unread = await countUnread(tx, owner.id);
    return toMeDto(owner, actor, unread, await isWaitlistReader(tx, owner.email), new Date());
  });
}

/**
 * A dry run of a base currency change (GET /v1/me/base-currency-preview): the counts and rates
 * of what rebaseOwner would restate, and the refusal it would answer, from the same checks
 * (assertAmountsFit converts the largest amount of every currency and rate day, so a missing
 * rate or an amount beyond the range shows here as it would there). Reads only.
 */
export async function previewBaseCurrencyChange(db: TDbOrTx, ownerId: string, to: string): Promise<TBaseCurrencyPreview> {
  assertKnownCurrency(to, "base_currency");
  return inTransaction(db, async (tx) => {
    const owner = await requireOwner(tx, ownerId);
    const from = owner.baseCurrency;
    const today = todayUtc();
    // The same base changes nothing stored (PATCH only confirms it): nothing to restate.
    const events =
      from === to
        ? []
        : await tx.$queryRaw<Array<{ currency: string; state: string; n: number }>>`
      SELECT currency::text AS currency, state, count(*)::int AS n
        FROM financial_events
       WHERE owner_id = ${ownerId}::uuid AND (base_currency IS NULL OR base_currency <> ${to})
       GROUP BY 1, 2`;
    const others = await tx.$queryRaw<Array<{ kind: string; currency: string; n: number }>>`
      SELECT 'subscriptions' AS kind, currency::text AS currency, count(*)::int AS n FROM subscriptions
       WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2
      UNION ALL
      SELECT 'budget_reservations', currency::text, count(*)::int FROM budget_reservations
       WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2
      UNION ALL
      SELECT 'cash_snapshots', currency::text, count(*)::int FROM cash_snapshots
       WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2`;

    const byCurrency = new Map<string, { actual_events: number; planned_events: number }>();
    for (const row of events) {
      const currency = row.currency.trim();
      const entry = byCurrency.get(currency) ?? { actual_events: 0, planned_events: 0 };
      if (row.state === "actual") entry.actual_events += row.n;
      else entry.planned_events += row.n;
      byCurrency.set(currency, entry);
    }
    const currencies = [...byCurrency.keys()].sort();
    const rates = await resolveRatesSettled(
      tx,
      [from, ...currencies].map((currency) => ({ from: currency, to, on: today, kind: "current" as const })),
      { today },
    );
    const rateOf = (i: number) => {
      const outcome = rates[i]!;
      return outcome.ok ? { rate: outcome.fx.rate, as_of: outcome.fx.as_of } : null;
    };

    let refusal: TBaseCurrencyPreview["refusal"] = null;
    if (from !== to) {
      try {
        await assertAmountsFit(tx, ownerId, to, today, { today });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        refusal = {
          code: error.code,
          message: error.message,
          details: (error.details as Record<string, unknown> | undefined) ?? null,
        };
      }
    }
    const count = (kind: string) => others.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.n, 0);
    return {
      from,
      to,
      changes: from !== to,
      events: {
        actual: [...byCurrency.values()].reduce((sum, e) => sum + e.actual_events, 0),
        planned: [...byCurrency.values()].reduce((sum, e) => sum + e.planned_events, 0),
      },
      by_currency: currencies.map((currency, i) => ({ currency, ...byCurrency.get(currency)!, rate_today: rateOf(i + 1) })),
      converted_on_read: {
        subscriptions: count("subscriptions"),
        budget_reservations: count("budget_reservations"),
        cash_snapshots: count("cash_snapshots"),
      },
      old_base_rate_today: from === to ? null : rateOf(0),
      refusal,
    };
  });
}
