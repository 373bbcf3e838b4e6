// Sums of counted actuals (K3) by direction (K4) over a span of days, in SQL: Σ of the frozen
// base_amount_minor. They feed burn and runway (K8: [R − 89, R]), the forecast's run rate
// (§2.5: T_in = in, T_out = out of ad_spend, expense and refund out) and the Overview's last 30
// days and month to date (§2.10). Each sum comes with the frozen rates behind it (one GROUP BY)
// for the envelope's fx.
import { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";
import { burnOf, burnWindow, type TBurn } from "./burn";
import { actualCountedSql, sumInSql, sumOutSql } from "./counted";
import { snapshotConversions, toBigInt, type TSummaryConversion } from "./display";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

/** The out types a forecast's run rate projects; recurring and planned costs are commitments (K7) already. */
const RUN_RATE_OUT_SQL = Prisma.raw(
  `COALESCE(SUM(e.base_amount_minor) FILTER (WHERE e.type IN ('ad_spend', 'expense') OR (e.type = 'refund' AND e.direction = 'out')), 0)::bigint`,
);

export type TFlows = {
  inMinor: bigint;
  outMinor: bigint;
  /** Σ out of ad_spend, expense and refund out (the forecast's T_out). */
  runRateOutMinor: bigint;
  conversions: TSummaryConversion[];
};

function spanSql(ownerId: string, scope: TReadScope, from: string, to: string): Prisma.Sql {
  return Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND ${actualCountedSql("e")}
    AND e.occurred_on BETWEEN ${daySql(from)} AND ${daySql(to)}`;
}

/** Counted actuals of the scope with occurred_on in [from, to], by direction. */
export async function actualFlows(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, from: string, to: string): Promise<TFlows> {
  const where = spanSql(day.ownerId, scope, from, to);
  const [row] = await db.$queryRaw<Array<{ in_minor: unknown; out_minor: unknown; run_rate_out: unknown }>>`
    SELECT ${sumInSql("e")} AS in_minor, ${sumOutSql("e")} AS out_minor, ${RUN_RATE_OUT_SQL} AS run_rate_out
      FROM financial_events e
     WHERE ${where}`;
  const conversions = await snapshotConversions(db, Prisma.sql`financial_events e`, "e", where);
  return {
    inMinor: toBigInt(row?.in_minor),
    outMinor: toBigInt(row?.out_minor),
    runRateOutMinor: toBigInt(row?.run_rate_out),
    conversions,
  };
}

/** The same for every business of the owner at once (one GROUP BY): business id → in, out. */
export async function actualFlowsByBusiness(
  db: TDbOrTx,
  day: TOwnerDay,
  from: string,
  to: string,
): Promise<Map<string, { inMinor: bigint; outMinor: bigint }>> {
  const rows = await db.$queryRaw<Array<{ business_id: string; in_minor: unknown; out_minor: unknown }>>`
    SELECT e.business_id::text AS business_id, ${sumInSql("e")} AS in_minor, ${sumOutSql("e")} AS out_minor
      FROM financial_events e
     WHERE ${spanSql(day.ownerId, { kind: "owner" }, from, to)} AND e.business_id IS NOT NULL
     GROUP BY e.business_id`;
  return new Map(rows.map((row) => [row.business_id, { inMinor: toBigInt(row.in_minor), outMinor: toBigInt(row.out_minor) }]));
}

export type TBurnAt = TBurn & {
  window: { from: string; to: string };
  flows: TFlows;
};

/** K8's 90-day sums and monthly burn of the scope, on reference day R. */
export async function burnAt(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, referenceDay: string): Promise<TBurnAt> {
  const window = burnWindow(referenceDay);
  const flows = await actualFlows(db, day, scope, window.from, window.to);
  return { ...burnOf(flows.inMinor, flows.outMinor), window, flows };
}
