// Sums of counted actuals (K3) by direction (K4) over spans of days, in SQL: Σ of the frozen
// base_amount_minor. They feed burn and runway (K8: [R − 89, R]), the forecast's run rate
// (§2.5: T_in = in, T_out = out of ad_spend, expense and refund out) and the Overview's last 30
// days, month to date and each business's last 30 days (§2.10). The sums of every span and the frozen rates behind them (the
// envelope's fx) come from ONE scan, grouped two ways at once (GROUPING SETS): by frozen rate
// (currency, rate, day, source: the conversions) and by type and direction (the sums; a dozen
// groups). Both are hashed: grouping by all six columns at once has too many groups for the
// planner's memory estimate and it sorts 118,000 rows instead (bench read's plans, 1,000,000
// events). The index on (owner_id, occurred_on, …) holds every column read, so the scan never
// visits the table.
import { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";
import { actualPartsSql, runRateOutSql } from "./burn-sums";
import { directionSql } from "./counted";
import { lateRateSql, snapshotConversionOf, staleSql, toBigInt, type TSummaryConversion } from "./display";
import { daySql } from "./period";
import type { TReadScope } from "./scope";

export type TSpan = { from: string; to: string };

export type TFlow = {
  inMinor: bigint;
  outMinor: bigint;
  /** Σ out of ad_spend, expense and refund out (the forecast's T_out): recurring and planned costs are K7 commitments. */
  runRateOutMinor: bigint;
};

type TFlowGroupRow = {
  /** rate: one frozen rate (currency, rate, day, source); direction: one type and direction; business: the same within one business. */
  kind: "rate" | "direction" | "business";
  business_id: string | null;
  money_direction: "in" | "out" | null;
  run_rate: boolean | null;
  currency: string | null;
  rate: string | null;
  as_of: string | null;
  source: string | null;
  stale: boolean | null;
  weight: unknown;
} & Record<`s_${number}`, unknown>;

export type TActualFlows = {
  /** One per span, in order. */
  flows: TFlow[];
  /** The frozen rates behind every span's rows, for the envelope's fx. */
  conversions: TSummaryConversion[];
  /** With `byBusiness`: each business's flows, one per span (businesses without a counted actual absent). */
  byBusiness: Map<string, TFlow[]>;
};

const noFlows = (spans: readonly TSpan[]): TFlow[] => spans.map(() => ({ inMinor: 0n, outMinor: 0n, runRateOutMinor: 0n }));

/**
 * Counted actuals of the scope in each span (occurred_on, both ends inclusive), by direction,
 * with the frozen rates behind all of them (weighted by Σ |base| over the spans' union), and
 * with `byBusiness` the same sums for each business: one scan. With `knownAt`, as known at that
 * instant (the daily brief's end of day): two scans, one per part of burn-sums.ts actualPartsSql.
 */
export async function actualFlows(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  spans: readonly TSpan[],
  options: { byBusiness?: boolean; knownAt?: Date } = {},
): Promise<TActualFlows> {
  const spanSums = spans.map(
    (span, i) =>
      Prisma.sql`SUM(e.base_amount_minor) FILTER (WHERE e.occurred_on BETWEEN ${daySql(span.from)} AND ${daySql(span.to)}) AS ${Prisma.raw(`s_${i}`)}`,
  );
  // GROUPING(…) is 0 for the columns a row is grouped by.
  const sets = options.byBusiness
    ? Prisma.sql`(e.currency, e.fx_rate, e.fx_as_of, e.fx_source), (e.type, e.direction), (e.business_id, e.type, e.direction)`
    : Prisma.sql`(e.currency, e.fx_rate, e.fx_as_of, e.fx_source), (e.type, e.direction)`;
  const kind = options.byBusiness
    ? Prisma.sql`CASE WHEN GROUPING(e.type, e.direction) <> 0 THEN 'rate' WHEN GROUPING(e.business_id) = 0 THEN 'business' ELSE 'direction' END`
    : Prisma.sql`CASE WHEN GROUPING(e.type, e.direction) <> 0 THEN 'rate' ELSE 'direction' END`;
  const grouped = (where: Prisma.Sql) =>
    Prisma.sql`SELECT ${kind} AS kind, ${options.byBusiness ? Prisma.sql`e.business_id` : Prisma.sql`NULL::uuid`} AS business_id,
                   e.type, e.direction, e.currency, e.fx_rate, e.fx_as_of, e.fx_source,
                   ${Prisma.join(spanSums, ", ")},
                   SUM(abs(e.base_amount_minor)) AS weight,
                   ${lateRateSql("e")} AS late
              FROM financial_events e
             WHERE ${where}
             GROUP BY GROUPING SETS (${sets})`;
  // Each part grouped on its own (burn-sums.ts actualPartsSql); their groups add up below.
  const parts = actualPartsSql(day.ownerId, scope, spans, options.knownAt).map(grouped);
  const rows = await db.$queryRaw<TFlowGroupRow[]>`
    SELECT r.kind, r.business_id::text AS business_id, ${directionSql("r")} AS money_direction, ${runRateOutSql("r")} AS run_rate,
           r.currency::text AS currency, r.fx_rate::text AS rate, to_char(r.fx_as_of, 'YYYY-MM-DD') AS as_of,
           r.fx_source AS source, ${staleSql(Prisma.sql`r.late`, Prisma.sql`r.fx_as_of`)} AS stale,
           r.weight::text AS weight, ${Prisma.join(
             spans.map((_, i) => Prisma.raw(`COALESCE(r.s_${i}, 0)::text AS s_${i}`)),
             ", ",
           )}
      FROM (${Prisma.join(parts, " UNION ALL ")}) r`;

  const flows = noFlows(spans);
  // One rate group may come from both parts: merged (weights added, stale if either is).
  const rates = new Map<string, { row: TFlowGroupRow; weight: bigint; stale: boolean }>();
  const byBusiness = new Map<string, TFlow[]>();
  const add = (into: TFlow[], row: TFlowGroupRow) =>
    into.forEach((flow, i) => {
      const sum = toBigInt(row[`s_${i}`]);
      if (row.money_direction === "in") flow.inMinor += sum;
      if (row.money_direction === "out") flow.outMinor += sum;
      if (row.run_rate === true) flow.runRateOutMinor += sum;
    });
  for (const row of rows) {
    if (row.kind === "direction") add(flows, row);
    else if (row.kind === "business") {
      // Personal rows have no business.
      if (row.business_id === null) continue;
      if (!byBusiness.has(row.business_id)) byBusiness.set(row.business_id, noFlows(spans));
      add(byBusiness.get(row.business_id)!, row);
    } else if (row.rate !== null) {
      // Rows without a frozen rate count in the sums and have no conversion.
      const key = [row.currency, row.rate, row.as_of, row.source].join("|");
      const seen = rates.get(key);
      if (seen) {
        seen.weight += toBigInt(row.weight);
        seen.stale ||= row.stale === true;
      } else rates.set(key, { row, weight: toBigInt(row.weight), stale: row.stale === true });
    }
  }
  const conversions: TSummaryConversion[] = [...rates.values()].map(({ row, weight, stale }) =>
    snapshotConversionOf({
      currency: row.currency!,
      rate: row.rate!,
      as_of: row.as_of!,
      source: row.source!,
      stale,
      weight: weight.toString(),
    }),
  );
  return { flows, conversions, byBusiness };
}
