// K5 (pinned-wave2 §2.1): amounts of an aggregate and what it says about their rates.
//   - Actuals: Σ base_amount_minor (frozen snapshots); their rates, grouped in SQL, feed the
//     envelope's fx (snapshotConversions).
//   - Other records (cash snapshots, commitments, reservations): each converted at today's
//     current rate, half even, then summed (currentAmounts), so listed items add up.
//   - display_currency: the components are converted ONCE from the base (toDisplayCurrency);
//     the caller recomputes derived fields from the converted components, so top-level
//     identities (net = in − out) hold in every display currency. Breakdowns add up exactly in
//     the base only.
//   - A missing rate → 422 fx_unavailable; a currency the source does not cover → 422
//     currency_unsupported; a stale rate is used and flagged (fx.stale). Never 1:1 silently.
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { toJsonAmount } from "../fx/base-amounts";
import { convertManyExact } from "../fx/fx-service";
import type { TFxInfo, TFxSummary, TFxUsed } from "../fx/fx.schema";
import { buildFxSummary, toDisplayCurrency, type TSummaryConversion } from "../fx/fx-summary";
import { ECB_STALE_AFTER_DAYS } from "../fx/providers/ecb";
import type { TOwnerDay } from "../shared/owner-today";

export type { TSummaryConversion };

/** A bigint from a raw query's column (bigint, numeric text or number alike). */
export function toBigInt(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return BigInt(value);
  if (typeof value === "string") return BigInt(value);
  if (value === null || value === undefined) return 0n;
  return BigInt(String(value));
}

/** Minor units as a JSON integer; beyond ±(2^53 − 1): 422 amount_out_of_range naming the field, never rounded. */
export const toMinor = toJsonAmount;

export type TSnapshotRow = { currency: string; rate: string; as_of: string; source: string; stale: boolean; weight: unknown };

/**
 * The aggregate behind a frozen rate's staleness, over the financial_events rows `alias` of one
 * rate group (one currency, rate, day and source): the latest created_at among the ecb rows
 * that occurred more than ECB_STALE_AFTER_DAYS after the rate's day (NULL when none). A MAX,
 * not a bool_or of the whole rule: it merges across sub-groups, and PostgreSQL hashes it.
 */
export function lateRateSql(alias: string): Prisma.Sql {
  const e = Prisma.raw(alias);
  return Prisma.sql`MAX(${e}.created_at) FILTER (WHERE ${e}.fx_source = 'ecb' AND ${e}.occurred_on - ${e}.fx_as_of > ${ECB_STALE_AFTER_DAYS}::int)`;
}

/**
 * A rate group is stale when one of its ecb rows was both used (occurred_on) and recorded
 * (created_at, UTC day) more than ECB_STALE_AFTER_DAYS after the rate's day: given `late`
 * (lateRateSql, the latest such record), whether it was recorded that late. `late` and `asOf`
 * are SQL over the group.
 */
export function staleSql(late: Prisma.Sql, asOf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`COALESCE((${late} AT TIME ZONE 'UTC')::date - ${asOf} > ${ECB_STALE_AFTER_DAYS}::int, false)`;
}

/** A conversion of the envelope's fx from a rate group's row (snapshotConversions, actualFlows). */
export function snapshotConversionOf(row: TSnapshotRow): TSummaryConversion {
  return {
    from: row.currency,
    fx: {
      rate: formatRate8(row.rate),
      as_of: row.as_of,
      source: row.source as TFxInfo["source"],
      kind: "snapshot",
      stale: row.stale === true,
    },
    amountMinor: toBigInt(row.weight),
  };
}

/**
 * The frozen rates behind the financial_events rows `alias` of `from` matching `where`, one
 * per distinct (currency, rate, day, source), weighted by Σ |base_amount_minor|: one GROUP BY.
 * `from` is the FROM clause naming the alias (e.g. Prisma.sql`financial_events e`).
 */
export async function snapshotConversions(
  db: TDbOrTx,
  from: Prisma.Sql,
  alias: string,
  where: Prisma.Sql,
): Promise<TSummaryConversion[]> {
  const e = Prisma.raw(alias);
  // Grouped on the stored columns, formatted per group: formatting in the GROUP BY cost a
  // to_char and two casts per event (half the query at 120,000 events; bench read's plans).
  const rows = await db.$queryRaw<TSnapshotRow[]>`
    SELECT g.currency::text AS currency, g.fx_rate::text AS rate, to_char(g.fx_as_of, 'YYYY-MM-DD') AS as_of,
           g.fx_source AS source, ${staleSql(Prisma.sql`g.late`, Prisma.sql`g.fx_as_of`)} AS stale, g.weight::text AS weight
      FROM (SELECT ${e}.currency, ${e}.fx_rate, ${e}.fx_as_of, ${e}.fx_source,
                   ${lateRateSql(alias)} AS late,
                   SUM(abs(${e}.base_amount_minor)) AS weight
              FROM ${from}
             WHERE ${where} AND ${e}.fx_rate IS NOT NULL
             GROUP BY 1, 2, 3, 4) g`;
  return rows.map(snapshotConversionOf);
}

/** A numeric(24, 8) as text with exactly 8 places (PostgreSQL prints the scale; this only guards it). */
function formatRate8(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${fraction.padEnd(8, "0").slice(0, 8)}`;
}

export type TCurrentItem = { amountMinor: bigint; currency: string };

/**
 * Records valued at today's current rate, each converted once, half even (one rate lookup for
 * all). Answers the base amounts in order, exact whatever their size (the answer refuses a
 * figure beyond the exact range when it leaves, toMinor), and the conversions for
 * buildFxSummary. fx_unavailable / currency_unsupported (422) when a rate is missing.
 */
export async function currentAmounts(
  db: TDbOrTx,
  day: TOwnerDay,
  items: readonly TCurrentItem[],
): Promise<{ amounts: bigint[]; conversions: TSummaryConversion[] }> {
  if (items.length === 0) return { amounts: [], conversions: [] };
  const converted = await convertManyExact(
    db,
    items.map((item) => ({
      amountMinor: item.amountMinor,
      from: item.currency,
      to: day.baseCurrency,
      on: day.ratesOn,
      kind: "current" as const,
    })),
    { today: day.ratesOn },
  );
  return {
    amounts: converted.map((c) => c.amountMinor),
    conversions: converted.map((c, i) => ({ from: items[i]!.currency, fx: c.fx, amountMinor: c.amountMinor })),
  };
}

export type TDisplayed<K extends string> = {
  /** The display currency (the base when none was asked). */
  currency: string;
  baseCurrency: string;
  /** Each component in the display currency (the base amounts themselves when no conversion). */
  amounts: Record<K, bigint>;
  /** The envelope's fx. */
  fx: TFxSummary;
  /** data.fx_used. */
  fxUsed: TFxUsed[];
  /**
   * What the envelope's fx was built from (every conversion behind the components, and base →
   * display), for a document made of several aggregates to build its own (the business context).
   */
  basis: TFxBasis;
};

/** The conversions behind an aggregate's fx: buildFxSummary's input, less the currencies and the day. */
export type TFxBasis = { conversions: readonly TSummaryConversion[]; displayFx?: TFxInfo };

/**
 * The components of an aggregate (base currency) in the display currency, with the envelope's
 * fx and fx_used built from every conversion behind them (snapshots, current records, base →
 * display). Derived fields are the caller's: recompute them from the converted components.
 */
export async function toDisplay<K extends string>(
  db: TDbOrTx,
  day: TOwnerDay,
  input: { displayCurrency?: string; components: Record<K, bigint>; conversions: readonly TSummaryConversion[] },
): Promise<TDisplayed<K>> {
  const base = day.baseCurrency;
  const display = input.displayCurrency ?? base;
  const keys = Object.keys(input.components) as K[];
  let amounts = input.components;
  let displayFx: TFxInfo | undefined;
  if (display !== base) {
    const converted = await toDisplayCurrency(
      db,
      { baseCurrency: base, displayCurrency: display, amounts: keys.map((k) => input.components[k]) },
      { today: day.ratesOn },
    );
    amounts = Object.fromEntries(keys.map((k, i) => [k, converted.amounts[i]!])) as Record<K, bigint>;
    displayFx = converted.fx;
  }
  const summary = buildFxSummary({
    baseCurrency: base,
    displayCurrency: display,
    conversions: [...input.conversions],
    displayFx,
    today: day.ratesOn,
  });
  return {
    currency: display,
    baseCurrency: base,
    amounts,
    fx: summary.fx,
    fxUsed: summary.fx_used,
    basis: { conversions: input.conversions, displayFx },
  };
}

/** Converts more base amounts to the display currency at the same rate as toDisplay did (lists, breakdowns). */
export async function displayList(
  db: TDbOrTx,
  day: TOwnerDay,
  displayCurrency: string | undefined,
  amounts: readonly bigint[],
): Promise<bigint[]> {
  if (!displayCurrency || displayCurrency === day.baseCurrency || amounts.length === 0) return [...amounts];
  const converted = await toDisplayCurrency(
    db,
    { baseCurrency: day.baseCurrency, displayCurrency, amounts: [...amounts] },
    { today: day.ratesOn },
  );
  return converted.amounts;
}
