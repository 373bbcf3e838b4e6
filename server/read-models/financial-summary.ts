// Financial summaries (pinned-wave2 §2.4): the counted actuals of a period, for a business or
// the owner's personal finances. One GROUPING SETS scan of the period's events gives the type,
// category, project and source-type breakdowns; totals derive from the type rows by §2.4's
// formulas (summary-values.ts: net_revenue, expenses, outflow, net).
//
// display_currency: the components (revenue, refund out, expense, recurring_expense, refund in,
// ad_spend, and the cash and burn amounts) are converted once; the derived fields are
// recomputed from them, so the identities hold in every display currency. Breakdowns are
// converted item by item at the same rate (they add up exactly in the base only).
// cash and runway: now (K6; K8 with R = today). burn: K8 with R = to.
import type { TEventType } from "../../lib/event-types";
import type { TMoneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { burnOf, burnWindow, runwayOf } from "./burn";
import { windowSums, windowsWhereSql } from "./burn-sums";
import type { TActualFlows } from "./flows";
import { cashPosition, toCashDto } from "./cash";
import { actualMoneySql, directionSql } from "./counted";
import { envelopeCoverage } from "./coverage";
import { displayList, snapshotConversions, toBigInt, toDisplay, toMinor } from "./display";
import { daySql, type TOwnerDay } from "./period";
import { LOW_CONFIDENCE_BELOW, type TProvenanceSummary } from "./read-model.schema";
import { eventScopeSql, type TReadScope } from "./scope";
import { summaryComponentsOf, summaryTotals } from "./summary-values";

/** The domains a financial summary's envelope reports (§2.4 "Coverage"). */
export const SUMMARY_COVERAGE_DOMAINS = ["cash", "revenue", "expenses"] as const;

// A project is a scope too (K2: its own events; its business's cash), for goals' progress;
// the REST operations answer businesses and personal finances only.
type TSummaryScope = Extract<TReadScope, { kind: "business" } | { kind: "project" } | { kind: "personal" }>;

/** The answer's `scope` for the scope asked: { business_id } | { project_id, business_id } | { personal: true }. */
type TSummaryScopeRef<TScope extends TSummaryScope> = TScope extends { kind: "business" }
  ? { business_id: string }
  : TScope extends { kind: "project" }
    ? { project_id: string; business_id: string }
    : { personal: true };

function summaryScopeRef<TScope extends TSummaryScope>(scope: TScope): TSummaryScopeRef<TScope> {
  const ref =
    scope.kind === "business"
      ? { business_id: scope.businessId }
      : scope.kind === "project"
        ? { project_id: scope.projectId, business_id: scope.businessId }
        : { personal: true as const };
  return ref as TSummaryScopeRef<TScope>;
}

type TGroupRow = {
  set: string;
  type: TEventType | null;
  money_direction: TMoneyDirection | null;
  category: string | null;
  project_id: string | null;
  source_type: string | null;
  amount: unknown;
  in_minor: unknown;
  out_minor: unknown;
  count: unknown;
  min_confidence: string | null;
  low_confidence: unknown;
};

export async function getFinancialSummary<TScope extends TSummaryScope>(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TScope,
  query: { from: string; to: string; displayCurrency?: string },
  shared: { burnFlows?: Promise<TActualFlows> } = {},
) {
  const { from, to } = query;
  // K4: only events that move money; a subscription_change or agent_action is in no type, count or rate.
  const inScope = Prisma.sql`${eventScopeSql("e", day.ownerId, scope)} AND ${actualMoneySql("e")}
    AND e.occurred_on BETWEEN ${daySql(from)} AND ${daySql(to)}`;
  const byProject = scope.kind === "business";
  const groups = db.$queryRaw<TGroupRow[]>`
    SELECT CASE WHEN GROUPING(e.type, ${directionSql("e")}) = 0 THEN 'type'
                WHEN GROUPING(e.category) = 0 THEN 'category'
                WHEN GROUPING(e.project_id) = 0 THEN 'project'
                ELSE 'source' END AS set,
           e.type, ${directionSql("e")} AS money_direction, e.category, e.project_id::text AS project_id, e.source_type,
           COALESCE(SUM(e.base_amount_minor), 0)::text AS amount,
           COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'in'), 0)::text AS in_minor,
           COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'out'), 0)::text AS out_minor,
           COUNT(*)::text AS count,
           MIN(e.confidence)::text AS min_confidence,
           COUNT(*) FILTER (WHERE e.confidence < ${LOW_CONFIDENCE_BELOW})::text AS low_confidence
      FROM financial_events e
     WHERE ${inScope}
     GROUP BY GROUPING SETS ((e.type, ${directionSql("e")}), (e.category), (e.project_id), (e.source_type))`;

  // Cash and runway now (R = today); burn over the 90 days to `to` (R = to).
  const burnToday = burnWindow(day.today);
  const burnTo = burnWindow(to);
  // `shared.burnFlows`: the scope's actualFlows over burnToday, read once by a caller that needs
  // them too (the business context: the forecast's run rate); the same Σ in and out.
  const burnSums = async () => {
    if (!shared.burnFlows) return windowSums(db, day.ownerId, scope, [burnToday, burnTo]);
    const sameWindow = burnTo.from === burnToday.from && burnTo.to === burnToday.to;
    const [flows, later] = await Promise.all([
      shared.burnFlows,
      sameWindow ? undefined : windowSums(db, day.ownerId, scope, [burnTo]),
    ]);
    const now = { in90: flows.flows[0]!.inMinor, out90: flows.flows[0]!.outMinor };
    return [now, later ? later[0]! : now];
  };
  // Independent reads, issued together (see overview.ts).
  const [rows, cash, [nowSums, toSums], snapshots, coverage] = await Promise.all([
    groups,
    cashPosition(db, day, scope),
    burnSums(),
    // The envelope's fx weighs every row behind a figure, each once (pinned-wave3 §1.4), as the
    // Overview's does: the period's (the sums) and the burn windows' (burn and runway).
    snapshotConversions(
      db,
      Prisma.sql`financial_events e`,
      "e",
      behindSql(day.ownerId, scope, [{ from, to }, burnToday, burnTo]),
    ),
    envelopeCoverage(db, day, scope, SUMMARY_COVERAGE_DOMAINS),
  ]);

  const typeRows = rows.filter((r) => r.set === "type");
  const base = summaryComponentsOf(
    typeRows.map((r) => ({ type: r.type, direction: r.money_direction, amount: toBigInt(r.amount) })),
  );

  const burnNow = burnOf(nowSums!.in90, nowSums!.out90);
  const burn = burnOf(toSums!.in90, toSums!.out90);
  const runway = runwayOf(cash?.amountMinor ?? null, burnNow.netBurn90, day.today);

  const shown = await toDisplay(db, day, {
    displayCurrency: query.displayCurrency,
    components: {
      ...base,
      cash: cash?.amountMinor ?? 0n,
      burn_net: burn.monthlyNetMinor,
      burn_gross: burn.monthlyGrossMinor,
    },
    conversions: [...snapshots, ...(cash?.conversions ?? [])],
  });
  const d = shown.amounts;
  const { netRevenue, expenses, outflow, net } = summaryTotals(d);
  // The totals first: when one is beyond the exact range, it is the figure the 422 names.
  const totals = {
    revenue_minor: toMinor(d.revenue, "revenue_minor"),
    refunds_out_minor: toMinor(d.refunds_out, "refunds_out_minor"),
    ad_spend_minor: toMinor(d.ad_spend, "ad_spend_minor"),
    net_revenue_minor: toMinor(netRevenue, "net_revenue_minor"),
    expenses_minor: toMinor(expenses, "expenses_minor"),
    outflow_minor: toMinor(outflow, "outflow_minor"),
    net_minor: toMinor(net, "net_minor"),
  };

  // Breakdowns, item by item at the same display rate.
  const categoryRows = rows.filter((r) => r.set === "category");
  const projectRows = byProject ? rows.filter((r) => r.set === "project") : [];
  const breakdown = await displayList(db, day, query.displayCurrency, [
    ...typeRows.map((r) => toBigInt(r.amount)),
    ...categoryRows.flatMap((r) => [toBigInt(r.in_minor), toBigInt(r.out_minor)]),
    ...projectRows.flatMap((r) => [toBigInt(r.in_minor), toBigInt(r.out_minor)]),
  ]);
  let at = 0;
  const next = () => breakdown[at++]!;
  // Sorted as bigints first, then made JSON numbers: a field beyond the exact range is named by
  // its place in the answer.
  const byTypeList = typeRows
    .map((r) => ({ type: r.type!, direction: r.money_direction, amount: next(), count: Number(r.count) }))
    .sort((a, b) => a.type.localeCompare(b.type) || (a.direction ?? "").localeCompare(b.direction ?? ""))
    .map(({ amount, ...row }, i) => ({ ...row, amount_minor: toMinor(amount, `by_type.${i}.amount_minor`) }));
  const byCategory = categoryRows
    .map((r) => ({ category: r.category, inMinor: next(), outMinor: next() }))
    .sort(nullsLast((r) => r.category))
    .map((r, i) => ({
      category: r.category,
      in_minor: toMinor(r.inMinor, `by_category.${i}.in_minor`),
      out_minor: toMinor(r.outMinor, `by_category.${i}.out_minor`),
    }));
  const byProjectList = projectRows
    .map((r) => ({ project_id: r.project_id, inMinor: next(), outMinor: next() }))
    .sort(nullsLast((r) => r.project_id))
    .map((r, i) => ({
      project_id: r.project_id,
      in_minor: toMinor(r.inMinor, `by_project.${i}.in_minor`),
      out_minor: toMinor(r.outMinor, `by_project.${i}.out_minor`),
      net_minor: toMinor(r.inMinor - r.outMinor, `by_project.${i}.net_minor`),
    }));

  const sourceRows = rows.filter((r) => r.set === "source");
  const eventsCounted = typeRows.reduce((sum, r) => sum + Number(r.count), 0);
  const confidences = sourceRows
    .map((r) => r.min_confidence)
    .filter((c): c is string => c !== null)
    .map(Number);
  const provenance: TProvenanceSummary = {
    events: eventsCounted,
    by_source_type: Object.fromEntries(sourceRows.map((r) => [r.source_type!, Number(r.count)])),
    min_confidence: confidences.length > 0 ? Math.min(...confidences) : null,
    low_confidence_events: sourceRows.reduce((sum, r) => sum + Number(r.low_confidence), 0),
  };

  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      scope: summaryScopeRef(scope),
      from,
      to,
      ...totals,
      by_type: byTypeList,
      by_category: byCategory,
      ...(byProject ? { by_project: byProjectList } : {}),
      cash: toCashDto(cash, d.cash, "cash"),
      runway,
      burn: {
        monthly_net_minor: toMinor(d.burn_net, "burn.monthly_net_minor"),
        monthly_gross_minor: toMinor(d.burn_gross, "burn.monthly_gross_minor"),
        window_days: 90 as const,
        window_to: burnTo.to,
      },
      events_counted: eventsCounted,
      fx_used: shown.fxUsed,
    },
    fx: shown.fx,
    coverage,
    provenance_summary: provenance,
    // Not part of the answer (the output schema leaves it out): for the business context's fx.
    fxBasis: shown.basis,
  };
}

/**
 * The scope's counted actuals that move money dated in any of `spans`: one index range over
 * their hull (windowsWhereSql, index-only as every sum here), the gaps between them filtered out.
 */
function behindSql(ownerId: string, scope: TReadScope, spans: ReadonlyArray<{ from: string; to: string }>): Prisma.Sql {
  const any = Prisma.join(
    spans.map((s) => Prisma.sql`e.occurred_on BETWEEN ${daySql(s.from)} AND ${daySql(s.to)}`),
    " OR ",
  );
  return Prisma.sql`${windowsWhereSql(ownerId, scope, spans)} AND (${any})`;
}

/** Sort by a nullable key, nulls last. */
function nullsLast<T>(key: (row: T) => string | null) {
  return (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return x.localeCompare(y);
  };
}
