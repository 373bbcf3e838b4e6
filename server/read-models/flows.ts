// Sums of counted actuals (K3) by direction (K4) over spans of days, in SQL: Σ of the frozen
// base_amount_minor. They feed burn and runway (K8: [R − 89, R]), the forecast's run rate
// (§2.5: T_in = in, T_out = out of ad_spend, expense and refund out) and the Overview's last 30
// days and month to date (§2.10). Several spans are one scan (one FILTER column per span and
// sum), and the frozen rates behind them are one GROUP BY, for the envelope's fx.
import { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";
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

const RUN_RATE_OUT = Prisma.raw(`(e.type IN ('ad_spend', 'expense') OR (e.type = 'refund' AND e.direction = 'out'))`);

function sumSql(filter: Prisma.Sql, name: string): Prisma.Sql {
  return Prisma.sql`COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${filter}), 0)::text AS ${Prisma.raw(name)}`;
}

/**
 * Counted actuals of the scope in each span (occurred_on, both ends inclusive), by direction,
 * with the frozen rates behind all of them.
 */
export async function actualFlows(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  spans: readonly TSpan[],
): Promise<{ flows: TFlow[]; conversions: TSummaryConversion[] }> {
  const first = spans.reduce((min, s) => (s.from < min ? s.from : min), spans[0]!.from);
  const last = spans.reduce((max, s) => (s.to > max ? s.to : max), spans[0]!.to);
  const where = Prisma.sql`${eventScopeSql("e", day.ownerId, scope)} AND ${actualCountedSql("e")}
    AND e.occurred_on BETWEEN ${daySql(first)} AND ${daySql(last)}`;
  const columns = spans.flatMap((span, i) => {
    const inSpan = Prisma.sql`e.occurred_on BETWEEN ${daySql(span.from)} AND ${daySql(span.to)}`;
    return [
      sumSql(Prisma.sql`${inSpan} AND ${directionSql("e")} = 'in'`, `in_${i}`),
      sumSql(Prisma.sql`${inSpan} AND ${directionSql("e")} = 'out'`, `out_${i}`),
      sumSql(Prisma.sql`${inSpan} AND ${RUN_RATE_OUT}`, `rate_out_${i}`),
    ];
  });
  const [row] = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT ${Prisma.join(columns, ", ")} FROM financial_events e WHERE ${where}`;
  const conversions = await snapshotConversions(db, Prisma.sql`financial_events e`, "e", where);
  return {
    flows: spans.map((_, i) => ({
      inMinor: toBigInt(row?.[`in_${i}`]),
      outMinor: toBigInt(row?.[`out_${i}`]),
      runRateOutMinor: toBigInt(row?.[`rate_out_${i}`]),
    })),
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
