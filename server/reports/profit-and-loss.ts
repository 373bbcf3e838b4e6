// Profit and loss over time (pinned-wave3 §4): the financial summary's counting (K2 scope, K3
// counted actuals, K4 money-moving types, §2.4's formulas in summary-values.ts) over each
// calendar period of a range, in one scan grouped by period, row key, type and direction.
// No second source of truth: the same rows, the same fragments, the same formulas.
//
// A row is one side of a key: "in" = revenue − refunds of revenue (the summary's net_revenue),
// "out" = expense + recurring_expense − refunds of costs + ad_spend (its outflow). So the rows
// of a period add up to its totals, and the totals are the summary's of that period.
//
// display_currency: per period, the summary's six components are converted once and the
// totals derived from them (as the summary does); each row's amount is converted once per
// period and row; the range's totals convert the range's components once.
import type { TMoneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actualMoneySql, directionSql } from "../read-models/counted";
import { envelopeCoverage } from "../read-models/coverage";
import {
  displayList,
  lateRateSql,
  snapshotConversionOf,
  staleSql,
  toBigInt,
  toDisplay,
  toMinor,
  type TSnapshotRow,
} from "../read-models/display";
import { daySql, type TOwnerDay } from "../read-models/period";
import { eventScopeSql, toScopeRef, type TReadScope } from "../read-models/scope";
import { summaryComponentsOf, summaryTotals, type TSummaryComponents } from "../read-models/summary-values";
import { intervalStart, REPORT_INTERVALS, reportPeriods, type TReportInterval, type TReportRange } from "./report-period";
import { PNL_COVERAGE_DOMAINS, type TReportGroup } from "./report.schema";

/** The summary's components in the order rows of group_by=type list them, with their side and label. */
export const TYPE_ROWS: ReadonlyArray<{ key: keyof TSummaryComponents; direction: "in" | "out"; label: string }> = [
  { key: "revenue", direction: "in", label: "Revenue" },
  { key: "refunds_out", direction: "in", label: "Refunds to customers" },
  { key: "expense", direction: "out", label: "Expenses" },
  { key: "recurring_expense", direction: "out", label: "Recurring expenses" },
  { key: "ad_spend", direction: "out", label: "Ad spend" },
  { key: "refunds_in", direction: "out", label: "Refunds received" },
];
const COMPONENT_KEYS = TYPE_ROWS.map((r) => r.key);

/** A component's sign on its side: refunds lower the side they sit on. */
const SIGN: Record<keyof TSummaryComponents, 1n | -1n> = {
  revenue: 1n,
  refunds_out: -1n,
  expense: 1n,
  recurring_expense: 1n,
  ad_spend: 1n,
  refunds_in: -1n,
};

const ZERO: TSummaryComponents = {
  revenue: 0n,
  refunds_out: 0n,
  expense: 0n,
  recurring_expense: 0n,
  refunds_in: 0n,
  ad_spend: 0n,
};

function addComponents(a: TSummaryComponents, b: TSummaryComponents): TSummaryComponents {
  return Object.fromEntries(COMPONENT_KEYS.map((k) => [k, a[k] + b[k]])) as TSummaryComponents;
}

/** The row key's SQL for a grouping (type: none, the components are the rows). */
function keySql(group: TReportGroup): Prisma.Sql {
  switch (group) {
    case "type":
      return Prisma.sql`NULL::text`;
    case "category":
      return Prisma.sql`e.category`;
    case "business":
      return Prisma.sql`e.business_id::text`;
    case "project":
      return Prisma.sql`e.project_id::text`;
  }
}

type TSumRow = {
  bucket: string;
  key: string | null;
  type: string;
  money_direction: TMoneyDirection | null;
  amount: unknown;
  count: unknown;
};

/** The scope's counted actuals that move money dated in the range (the summary's WHERE). */
export function reportEventsSql(ownerId: string, scope: TReadScope, range: TReportRange): Prisma.Sql {
  return Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND ${actualMoneySql("e")}
    AND e.occurred_on BETWEEN ${daySql(range.from)} AND ${daySql(range.to)}`;
}

async function labelsOf(db: TDbOrTx, ownerId: string, group: TReportGroup, keys: ReadonlyArray<string | null>) {
  const ids = keys.filter((k): k is string => k !== null);
  const labels = new Map<string | null, string>();
  if (group === "business") {
    const rows = ids.length
      ? await db.business.findMany({ where: { ownerId, id: { in: ids } }, select: { id: true, name: true } })
      : [];
    for (const row of rows) labels.set(row.id, row.name);
    labels.set(null, "Personal");
  } else if (group === "project") {
    const rows = ids.length
      ? await db.project.findMany({ where: { ownerId, id: { in: ids } }, select: { id: true, name: true } })
      : [];
    for (const row of rows) labels.set(row.id, row.name);
    labels.set(null, "No project");
  } else {
    for (const id of ids) labels.set(id, id);
    labels.set(null, "Uncategorized");
  }
  return labels;
}

export async function getProfitAndLoss(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  query: TReportRange & { interval: TReportInterval; groupBy: TReportGroup; displayCurrency?: string },
) {
  const range = { from: query.from, to: query.to };
  const periods = reportPeriods(range, query.interval);
  const indexOf = new Map(periods.map((p, i) => [intervalStart(p.start, query.interval), i]));
  const where = reportEventsSql(day.ownerId, scope, range);

  // One scan, two groupings (the financial summary's way): the sums by period, row key, type and
  // direction, and the frozen rate groups behind them for the envelope's fx (snapshotConversions'
  // rows: its WHERE with fx_rate set, weighted by Σ |base|). The interval is spliced as a literal
  // (one of three checked words) so that the bucket in SELECT and GROUP BY is one expression.
  if (!REPORT_INTERVALS.includes(query.interval)) throw new Error(`Not an interval: ${String(query.interval)}`);
  const bucket = Prisma.raw(`date_trunc('${query.interval}', e.occurred_on::timestamp)`);
  const rate = Prisma.sql`e.currency, e.fx_rate, e.fx_as_of, e.fx_source`;
  const [scanned, coverage] = await Promise.all([
    db.$queryRaw<Array<TSumRow & TSnapshotRow & { set: "sum" | "rate" }>>`
      SELECT CASE WHEN GROUPING(${bucket}) = 0 THEN 'sum' ELSE 'rate' END AS set,
             to_char(${bucket}, 'YYYY-MM-DD') AS bucket, ${keySql(query.groupBy)} AS key, e.type,
             ${directionSql("e")} AS money_direction,
             SUM(e.base_amount_minor)::text AS amount, COUNT(*)::text AS count,
             e.currency::text AS currency, e.fx_rate::text AS rate, to_char(e.fx_as_of, 'YYYY-MM-DD') AS as_of,
             e.fx_source AS source, ${staleSql(lateRateSql("e"), Prisma.sql`e.fx_as_of`)} AS stale,
             SUM(abs(e.base_amount_minor))::text AS weight
        FROM financial_events e
       WHERE ${where}
       GROUP BY GROUPING SETS ((${bucket}, ${keySql(query.groupBy)}, e.type, ${directionSql("e")}), (${rate}))`,
    envelopeCoverage(db, day, scope, PNL_COVERAGE_DOMAINS),
  ]);
  const sums = scanned.filter((r) => r.set === "sum");
  const snapshots = scanned.filter((r) => r.set === "rate" && r.rate !== null).map(snapshotConversionOf);

  // Components per (key, period), by the summary's own rule (summaryComponentsOf).
  const byKey = new Map<string | null, TSummaryComponents[]>();
  const grouped = new Map<string, TSumRow[]>();
  let eventsCounted = 0;
  for (const row of sums) {
    eventsCounted += Number(row.count);
    const at = indexOf.get(row.bucket);
    if (at === undefined) throw new Error(`A report bucket outside its periods: ${row.bucket}`);
    const id = JSON.stringify([row.key, at]);
    grouped.set(id, [...(grouped.get(id) ?? []), row]);
  }
  for (const [id, rows] of grouped) {
    const [key, at] = JSON.parse(id) as [string | null, number];
    const components = summaryComponentsOf(
      rows.map((r) => ({ type: r.type, direction: r.money_direction, amount: toBigInt(r.amount) })),
    );
    if (!byKey.has(key))
      byKey.set(
        key,
        periods.map(() => ({ ...ZERO })),
      );
    byKey.get(key)![at] = components;
  }
  const periodComponents = periods.map((_, i) =>
    [...byKey.values()].reduce((sum, perKey) => addComponents(sum, perKey[i]!), { ...ZERO }),
  );
  const rangeComponents = periodComponents.reduce(addComponents, { ...ZERO });

  // The rows in the base: a side's amount of a key per period.
  type TBaseRow = { key: string | null; label: string; direction: "in" | "out"; amounts: bigint[]; total: bigint };
  const baseRows: TBaseRow[] = [];
  if (query.groupBy === "type") {
    for (const row of TYPE_ROWS) {
      const amounts = periodComponents.map((c) => SIGN[row.key] * c[row.key]);
      const present = sums.some(
        (s) => summaryComponentsOf([{ type: s.type, direction: s.money_direction, amount: 1n }])[row.key] !== 0n,
      );
      if (!present) continue;
      baseRows.push({ ...row, amounts, total: amounts.reduce((a, b) => a + b, 0n) });
    }
  } else {
    const labels = await labelsOf(db, day.ownerId, query.groupBy, [...byKey.keys()]);
    for (const [key, perPeriod] of byKey) {
      for (const direction of ["in", "out"] as const) {
        const amounts = perPeriod.map((c) => (direction === "in" ? summaryTotals(c).netRevenue : summaryTotals(c).outflow));
        const present = sums.some((s) => s.key === key && (direction === "in" ? isInSide(s) : !isInSide(s)));
        if (!present) continue;
        baseRows.push({
          key,
          label: labels.get(key) ?? key ?? "",
          direction,
          amounts,
          total: amounts.reduce((a, b) => a + b, 0n),
        });
      }
    }
    baseRows.sort(
      (a, b) =>
        (a.direction === b.direction ? 0 : a.direction === "in" ? -1 : 1) ||
        (a.total === b.total ? 0 : a.total > b.total ? -1 : 1) ||
        (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key.localeCompare(b.key)),
    );
  }

  // The envelope's fx from the range's frozen rates; the range's components converted once.
  const shown = await toDisplay(db, day, {
    displayCurrency: query.displayCurrency,
    components: rangeComponents,
    conversions: snapshots,
  });
  const converted = await displayList(db, day, query.displayCurrency, [
    ...periodComponents.flatMap((c) => COMPONENT_KEYS.map((k) => c[k])),
    ...baseRows.flatMap((r) => [...r.amounts, r.total]),
  ]);
  let at = 0;
  const next = () => converted[at++]!;
  const periodTotals = periods.map(() => {
    const c = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, next()])) as TSummaryComponents;
    return summaryTotals(c);
  });
  const rangeTotals = summaryTotals(shown.amounts);
  const rows = baseRows.map((row, r) => {
    const amounts = row.amounts.map((_, i) => toMinor(next(), `rows.${r}.amounts_minor.${i}`));
    return {
      key: row.key,
      label: row.label,
      direction: row.direction,
      amounts_minor: amounts,
      total_minor: toMinor(next(), `rows.${r}.total_minor`),
    };
  });

  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      scope: toScopeRef(scope),
      from: range.from,
      to: range.to,
      interval: query.interval,
      group_by: query.groupBy,
      periods,
      rows,
      totals: {
        in_minor: periodTotals.map((t, i) => toMinor(t.netRevenue, `totals.in_minor.${i}`)),
        out_minor: periodTotals.map((t, i) => toMinor(t.outflow, `totals.out_minor.${i}`)),
        net_minor: periodTotals.map((t, i) => toMinor(t.net, `totals.net_minor.${i}`)),
        in_total_minor: toMinor(rangeTotals.netRevenue, "totals.in_total_minor"),
        out_total_minor: toMinor(rangeTotals.outflow, "totals.out_total_minor"),
        net_total_minor: toMinor(rangeTotals.net, "totals.net_total_minor"),
      },
      events_counted: eventsCounted,
      fx_used: shown.fxUsed,
    },
    fx: shown.fx,
    coverage,
  };
}

/** Whether a (type, direction) sum sits on the revenue side (revenue, refunds of revenue). */
function isInSide(row: { type: string; money_direction: TMoneyDirection | null }): boolean {
  const c = summaryComponentsOf([{ type: row.type, direction: row.money_direction, amount: 1n }]);
  return c.revenue !== 0n || c.refunds_out !== 0n;
}
