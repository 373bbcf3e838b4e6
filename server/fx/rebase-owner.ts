// Changing the owner's base currency (PATCH /v1/me base_currency).
//
// Decision: stored base amounts are RE-EXPRESSED in the new base, in the same transaction as
// the change. An actual event keeps a snapshot rate of its own day: it is converted from its
// ORIGINAL amount and currency at the rate of its occurred_on (kind snapshot), never chained
// through the old base (which would round twice). A planned event takes today's rate (kind
// current). So every stored base amount stays one rounding away from its original, aggregates
// stay plain sums in one currency, and the change can be repeated or undone.
// Subscriptions, reservations and cash snapshots store no base amount (converted on read).
//
// If any event cannot be converted (currency_unsupported, fx_unavailable), the whole change is
// refused with that error and nothing is written, the base currency included. So is a base in
// which any of the owner's amounts (events, and the subscriptions, reservations and cash
// snapshots shown in the base on read) would be beyond the exact range ±(2^53 − 1): 422
// currency_unsupported with details.reason amount_out_of_range, checked for all rows at once
// before any is written.
import { todayUtc, utcDayOf } from "../../lib/days";
import type { TTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { convertMany, convertManySettled, type TFxOptions } from "./fx-service";

const CHUNK = 1000;

/**
 * Locks the owner's row for this transaction and answers its base currency. Writers of base
 * amounts (events) call it so a concurrent base change waits for them, and they for it.
 */
export async function lockBaseCurrency(tx: TTx, ownerId: string): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ base_currency: string }>>(baseCurrencyLock(ownerId));
  return rows[0]?.base_currency ?? null;
}

/** lockBaseCurrency's query, for a statement that takes the lock along with its own work. */
export function baseCurrencyLock(ownerId: string): Prisma.Sql {
  return Prisma.sql`SELECT base_currency FROM owners WHERE id = ${ownerId}::uuid FOR SHARE`;
}

/**
 * Refuses a new base in which any of the owner's amounts would be beyond the exact range,
 * before anything is re-expressed. Set-based: a conversion's magnitude only grows with the
 * amount's, so one query answers the largest |amount_minor| per currency and rate day (events
 * as the rebase converts them, the other records at today's rate as they are read), and one
 * batched conversion checks those maxima. A rate error of an event is the rebase's own error;
 * the other records are converted on read, so their rate errors are not this change's concern.
 */
export async function assertAmountsFit(tx: TTx, ownerId: string, newBase: string, today: string, options: TFxOptions) {
  const tops = await tx.$queryRaw<Array<{ kind: string; currency: string; day: string | null; top: string }>>`
    SELECT 'event' AS kind, currency, CASE WHEN state = 'actual' THEN to_char(occurred_on, 'YYYY-MM-DD') END AS day,
           max(abs(amount_minor))::text AS top
      FROM financial_events
     WHERE owner_id = ${ownerId}::uuid AND (base_currency IS NULL OR base_currency <> ${newBase})
     GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'subscription', currency, NULL, max(abs(amount_minor))::text FROM subscriptions
     WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'budget_reservation', currency, NULL, max(abs(amount_minor))::text FROM budget_reservations
     WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'cash_snapshot', currency, NULL, max(abs(amount_minor))::text FROM cash_snapshots
     WHERE owner_id = ${ownerId}::uuid GROUP BY 1, 2, 3`;
  const outcomes = await convertManySettled(
    tx,
    tops.map((t) => ({
      amountMinor: BigInt(t.top),
      from: t.currency.trim(),
      to: newBase,
      on: t.day ?? today,
      kind: t.day ? ("snapshot" as const) : ("current" as const),
    })),
    { ...options, today },
  );
  const rateErrors = outcomes.flatMap((o, i) => (!o.ok && tops[i]!.kind === "event" ? [o.error] : []));
  const rateError = rateErrors.find((e) => e.code === "currency_unsupported") ?? rateErrors[0];
  if (rateError) throw rateError;
  const beyond = tops.find((_, i) => {
    const outcome = outcomes[i]!;
    return outcome.ok && outcome.amountMinor === null;
  });
  if (beyond) {
    const currency = beyond.currency.trim();
    throw new AppError(
      "currency_unsupported",
      `base_currency: in ${newBase}, an amount of a ${beyond.kind} in ${currency} would be beyond the exact integer range ` +
        "±(2^53 − 1); the base currency is unchanged.",
      {
        details: {
          currency: newBase,
          field: "base_currency",
          reason: "amount_out_of_range",
          record_type: beyond.kind,
          record_currency: currency,
        },
      },
    );
  }
}

/** Re-expresses every event of the owner whose base is not `newBase`; answers how many changed. */
export async function rebaseOwner(
  tx: TTx,
  ownerId: string,
  newBase: string,
  options: TFxOptions = {},
): Promise<{ events: number }> {
  const today = options.today ?? todayUtc();
  await assertAmountsFit(tx, ownerId, newBase, today, options);
  let changed = 0;
  let after: string | undefined;
  for (;;) {
    const events = await tx.financialEvent.findMany({
      where: {
        ownerId,
        OR: [{ baseCurrency: null }, { baseCurrency: { not: newBase } }],
        ...(after ? { id: { gt: after } } : {}),
      },
      select: { id: true, amountMinor: true, currency: true, state: true, occurredOn: true },
      orderBy: { id: "asc" },
      take: CHUNK,
    });
    if (events.length === 0) break;
    after = events.at(-1)!.id;
    const converted = await convertMany(
      tx,
      events.map((e) =>
        e.state === "actual"
          ? {
              amountMinor: e.amountMinor,
              from: e.currency,
              to: newBase,
              on: utcDayOf(e.occurredOn),
              kind: "snapshot",
            }
          : { amountMinor: e.amountMinor, from: e.currency, to: newBase, on: today, kind: "current" },
      ),
      { ...options, today },
    );
    const rows = events.map((e, i) => ({
      id: e.id,
      base: converted[i]!.amountMinor.toString(),
      rate: converted[i]!.fx.rate,
      as_of: converted[i]!.fx.as_of,
      source: converted[i]!.fx.source,
    }));
    changed += await tx.$executeRaw`
      UPDATE financial_events e
      SET base_amount_minor = v.base::bigint, base_currency = ${newBase}, fx_rate = v.rate::numeric,
          fx_as_of = v.as_of::date, fx_source = v.source, updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id text, base text, rate text, as_of text, source text)
      WHERE e.id = v.id::uuid AND e.owner_id = ${ownerId}::uuid`;
    if (events.length < CHUNK) break;
  }
  return { events: changed };
}
