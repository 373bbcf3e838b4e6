// Sums of counted actuals (K3) by direction (K4) over spans of days, in SQL: Σ of the frozen
// base_amount_minor. They feed burn and runway (K8: [R − 89, R]), the forecast's run rate
// (§2.5: T_in = in, T_out = out of ad_spend, expense and refund out) and the Overview's last 30
// days and month to date (§2.10). Several spans are one scan (burn-sums.ts), and the frozen
// rates behind them are one GROUP BY, for the envelope's fx.
import { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";
import { windowSums, windowsWhereSql } from "./burn-sums";
import { actualCountedSql, directionSql } from "./counted";
import { snapshotConversions, toBigInt, type TSummaryConversion } from "./display";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

export type TSpan = { from: string; to: string };

export type TFlow = {
  inMinor: bigint;
  outMinor: bigint;
  /** Σ out of ad_spend, expense and refund out (the forecast's T_out): recurring and planned costs are K7 commitments. */
  runRateOutMinor: bigint;
};

/**
 * Counted actuals of the scope in each span (occurred_on, both ends inclusive), by direction
 * (burn-sums.ts's windowSums, one scan), with the frozen rates behind all of them.
 */
export async function actualFlows(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  spans: readonly TSpan[],
): Promise<{ flows: TFlow[]; conversions: TSummaryConversion[] }> {
  const sums = await windowSums(db, day.ownerId, scope, spans);
  const where = windowsWhereSql(day.ownerId, scope, spans);
  const conversions = await snapshotConversions(db, Prisma.sql`financial_events e`, "e", where);
  return {
    flows: sums.map((s) => ({ inMinor: s.in90, outMinor: s.out90, runRateOutMinor: s.runRateOut })),
    conversions,
  };
}

/** In and out of every business of the owner over one span (one GROUP BY): business id → sums. */
export async function actualFlowsByBusiness(
  db: TDbOrTx,
  day: TOwnerDay,
  span: TSpan,
): Promise<Map<string, { inMinor: bigint; outMinor: bigint }>> {
  const rows = await db.$queryRaw<Array<{ business_id: string; in_minor: unknown; out_minor: unknown }>>`
    SELECT e.business_id::text AS business_id,
           COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'in'), 0)::text AS in_minor,
           COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'out'), 0)::text AS out_minor
      FROM financial_events e
     WHERE ${eventScopeSql("e", day.ownerId, { kind: "owner" })} AND ${actualCountedSql("e")}
       AND e.occurred_on BETWEEN ${daySql(span.from)} AND ${daySql(span.to)} AND e.business_id IS NOT NULL
     GROUP BY e.business_id`;
  return new Map(rows.map((row) => [row.business_id, { inMinor: toBigInt(row.in_minor), outMinor: toBigInt(row.out_minor) }]));
}
