// §2.4's values, the one place their formulas live: the financial summary derives its totals
// here, and so does anything that needs a summary's values over several spans of one scope
// (a decision's baseline and window, §3.2) without the whole envelope.
//
//   revenue, refunds_out, ad_spend      Σ revenue, refund out, ad_spend
//   net_revenue = revenue − refunds_out
//   expenses    = Σ expense + recurring_expense − refund in (an actual planned_expense, which no
//                 path writes, counts with expense so that net = in − out always holds)
//   outflow     = expenses + ad_spend;  net = net_revenue − outflow (= in − out)
import type { TMoneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { windowsWhereSql } from "./burn-sums";
import { directionSql } from "./counted";
import { toBigInt } from "./display";
import { daySql } from "./period";
import type { TReadScope } from "./scope";

/** The (type, direction) of each component a summary sums. */
export const SUMMARY_COMPONENT_ROWS = {
  revenue: ["revenue", "in"],
  refunds_out: ["refund", "out"],
  expense: ["expense", "out"],
  planned_expense: ["planned_expense", "out"],
  recurring_expense: ["recurring_expense", "out"],
  refunds_in: ["refund", "in"],
  ad_spend: ["ad_spend", "out"],
} as const;
type TComponentRow = keyof typeof SUMMARY_COMPONENT_ROWS;

/** The components a summary's totals derive from (in one currency: base, or display). */
export type TSummaryComponents = {
  revenue: bigint;
  refunds_out: bigint;
  expense: bigint;
  recurring_expense: bigint;
  refunds_in: bigint;
  ad_spend: bigint;
};

export type TSummaryTotals = { netRevenue: bigint; expenses: bigint; outflow: bigint; net: bigint };

/** The components from sums by (type, direction); an actual planned_expense counts with expense. */
export function summaryComponentsOf(
  rows: ReadonlyArray<{ type: string | null; direction: TMoneyDirection | null; amount: bigint }>,
): TSummaryComponents {
  const sum = (name: TComponentRow) => {
    const [type, direction] = SUMMARY_COMPONENT_ROWS[name];
    return rows.filter((r) => r.type === type && r.direction === direction).reduce((total, r) => total + r.amount, 0n);
  };
  return {
    revenue: sum("revenue"),
    refunds_out: sum("refunds_out"),
    expense: sum("expense") + sum("planned_expense"),
    recurring_expense: sum("recurring_expense"),
    refunds_in: sum("refunds_in"),
    ad_spend: sum("ad_spend"),
  };
}

/** net_revenue, expenses, outflow and net of some components (§2.4). */
export function summaryTotals(c: TSummaryComponents): TSummaryTotals {
  const netRevenue = c.revenue - c.refunds_out;
  const expenses = c.expense + c.recurring_expense - c.refunds_in;
  const outflow = expenses + c.ad_spend;
  return { netRevenue, expenses, outflow, net: netRevenue - outflow };
}

export type TSummaryValues = TSummaryComponents & TSummaryTotals;

/**
 * A financial summary's values (base minor units, counted actuals K3) of `scope` over each span
 * (occurred_on, both ends inclusive), one per span in order: one scan grouped by type and direction.
 */
export async function summaryValuesOver(
  db: TDbOrTx,
  ownerId: string,
  scope: TReadScope,
  spans: ReadonlyArray<{ from: string; to: string }>,
): Promise<TSummaryValues[]> {
  const sums = spans.map(
    (span, i) =>
      Prisma.sql`COALESCE(SUM(e.base_amount_minor) FILTER (WHERE e.occurred_on BETWEEN ${daySql(span.from)} AND ${daySql(span.to)}), 0)::text AS ${Prisma.raw(`s_${i}`)}`,
  );
  const rows = await db.$queryRaw<Array<{ type: string; money_direction: TMoneyDirection | null } & Record<string, unknown>>>`
    SELECT e.type, ${directionSql("e")} AS money_direction, ${Prisma.join(sums, ", ")}
      FROM financial_events e
     WHERE ${windowsWhereSql(ownerId, scope, spans)}
     GROUP BY e.type, ${directionSql("e")}`;
  return spans.map((_, i) => {
    const components = summaryComponentsOf(
      rows.map((row) => ({ type: row.type, direction: row.money_direction, amount: toBigInt(row[`s_${i}`]) })),
    );
    return { ...components, ...summaryTotals(components) };
  });
}
