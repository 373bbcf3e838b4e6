// fx_rates: one row per (source, day, base, quote), 1 base = rate quote. Written only by
// refreshRates (an idempotent upsert, so several instances refreshing at once is harmless),
// read by the lateral "latest on or before" lookup that uses the (source, base, quote, day)
// index. JSON parameters keep the SQL the same on PostgreSQL and PGlite.
import { todayUtc, utcMidnightOf } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import type { TFxProvider, TRateSet } from "./providers/types";

/** Stores one day's rates; answers how many rows were inserted or changed (0 on a repeat). */
export async function storeRateSet(db: TDbOrTx, source: string, set: TRateSet): Promise<number> {
  const rows = [...set.rates].map(([quote, rate]) => ({ quote, rate }));
  if (rows.length === 0) return 0;
  return db.$executeRaw`
    INSERT INTO fx_rates (source, day, base, quote, rate, fetched_at)
    SELECT ${source}, ${set.day}::date, ${set.base}, q.quote, q.rate::numeric, now()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS q(quote text, rate text)
    ON CONFLICT (source, day, base, quote)
    DO UPDATE SET rate = EXCLUDED.rate, fetched_at = EXCLUDED.fetched_at
    WHERE fx_rates.rate IS DISTINCT FROM EXCLUDED.rate`;
}

export type TRefreshResult = { source: string; days: string[]; written: number };

/**
 * Fetches what the provider publishes for `day` (ECB's daily feed: its latest day) and stores
 * it. Idempotent: a repeat writes nothing. Fetch or parse failures throw before any write.
 */
export async function refreshRates(db: TDbOrTx, provider: TFxProvider, day = todayUtc()): Promise<TRefreshResult> {
  const sets = await provider.fetchRates(day);
  let written = 0;
  for (const set of sets) written += await storeRateSet(db, provider.source, set);
  return { source: provider.source, days: sets.map((s) => s.day), written };
}

/** Whether the source has stored rates for `day` (lets the hourly job skip a fetch). */
export async function hasRatesFor(db: TDbOrTx, source: string, day: string): Promise<boolean> {
  const row = await db.fxRate.findFirst({ where: { source, day: utcMidnightOf(day) }, select: { quote: true } });
  return row !== null;
}

export type TLeg = { quote: string; day: string };
export type TLegRate = { rate: string; asOf: string };

export function legKey(leg: TLeg): string {
  return `${leg.quote}|${leg.day}`;
}

/** For each (quote, day): the latest stored rate on or before that day, in ONE query. */
export async function findLegRates(
  db: TDbOrTx,
  source: string,
  base: string,
  legs: TLeg[],
): Promise<Map<string, TLegRate | null>> {
  const unique = [...new Map(legs.map((leg) => [legKey(leg), leg])).values()];
  const found = new Map<string, TLegRate | null>();
  if (unique.length === 0) return found;
  const rows = await db.$queryRaw<Array<{ quote: string; day: string; as_of: string | null; rate: string | null }>>`
    SELECT q.quote, q.day, r.as_of, r.rate
    FROM jsonb_to_recordset(${JSON.stringify(unique)}::jsonb) AS q(quote text, day text)
    LEFT JOIN LATERAL (
      SELECT to_char(f.day, 'YYYY-MM-DD') AS as_of, f.rate::text AS rate
      FROM fx_rates f
      WHERE f.source = ${source} AND f.base = ${base} AND f.quote = q.quote AND f.day <= q.day::date
      ORDER BY f.day DESC
      LIMIT 1
    ) r ON true`;
  for (const row of rows) {
    found.set(legKey(row), row.rate !== null && row.as_of !== null ? { rate: row.rate, asOf: row.as_of } : null);
  }
  return found;
}

/** Quotes the source has ever stored (coverage beyond its static list). */
export async function storedQuotes(db: TDbOrTx, source: string, base: string): Promise<Set<string>> {
  const rows = await db.fxRate.findMany({ where: { source, base }, distinct: ["quote"], select: { quote: true } });
  return new Set(rows.map((r) => r.quote.trim()));
}
