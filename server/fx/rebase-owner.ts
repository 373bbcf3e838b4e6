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
// refused with that error and nothing is written, the base currency included.
import type { TTx } from "../db/client";
import { convertMany, type TFxOptions } from "./fx-service";
import { todayUtc } from "./money";

const CHUNK = 1000;

/**
 * Locks the owner's row for this transaction and answers its base currency. Writers of base
 * amounts (events) call it so a concurrent base change waits for them, and they for it.
 */
export async function lockBaseCurrency(tx: TTx, ownerId: string): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ base_currency: string }>>`
    SELECT base_currency FROM owners WHERE id = ${ownerId}::uuid FOR SHARE`;
  return rows[0]?.base_currency ?? null;
}

/** Re-expresses every event of the owner whose base is not `newBase`; answers how many changed. */
export async function rebaseOwner(
  tx: TTx,
  ownerId: string,
  newBase: string,
  options: TFxOptions = {},
): Promise<{ events: number }> {
  const today = options.today ?? todayUtc();
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
              on: e.occurredOn.toISOString().slice(0, 10),
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
