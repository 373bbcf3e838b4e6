// Project health (pinned-wave2 §2.9): GET /v1/businesses/{id}/project-health. Per project of
// the business, over the period and the one before it (same length, ending from − 1):
//
//   revenue_minor          in − refund out (its counted actuals)
//   direct_costs_minor     its out actuals other than refunds of revenue (those are in revenue)
//   allocated_costs_minor  its share_bps part (largest remainder) of the business-level out
//                          actuals of subscriptions allocated over projects
//   margin_minor           revenue − direct − allocated (= the project's in − out + its share)
//
// plus the business-level row (project_id null, no score): what no project carries, so the rows'
// margins add up to the business's net (in − out) of the period. Score, status and reasons:
// project-health-score.ts. One scan of both periods on the covering index, grouped by (period,
// project, type, direction) and by frozen rate (GROUPING SETS, as flows.ts), and one of the
// allocated subscriptions' business-level charges on the subscription index; rows load only
// for bounded lists (projects, subscriptions with allocations or capacity).
import { addDays } from "../../lib/days";
import { moneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { TAllocationShare } from "../subscriptions/allocation-math";
import { actualMoneySql, directionSql } from "./counted";
import { envelopeOf, scopeCoverageOf } from "./coverage";
import { lateRateSql, snapshotConversionOf, staleSql, toBigInt, toDisplay, toMinor, type TSummaryConversion } from "./display";
import { daySql, type TOwnerDay, type TPeriod } from "./period";
import {
  allocateCosts,
  capacityOf,
  scoreProject,
  type TCapacityFact,
  type THealthReason,
  type THealthStatus,
} from "./project-health-score";
import { ratio } from "./read-model.schema";
import { eventScopeSql, type TReadScope } from "./scope";

export const PROJECT_HEALTH_COVERAGE = ["revenue", "expenses"] as const;

type TBusinessScope = Extract<TReadScope, { kind: "business" }>;

/** The period before `period`: the same number of days, ending the day before it starts. */
export function previousPeriod(period: TPeriod): TPeriod {
  return { from: addDays(period.from, -period.days), to: addDays(period.from, -1), days: period.days };
}

type TFlowRow = {
  /** flow: one (period, project, type, direction); rate: one frozen rate (currency, rate, day, source). */
  kind: "flow" | "rate";
  current: boolean | null;
  project_id: string | null;
  type: string | null;
  direction: string | null;
  amount: unknown;
  count: unknown;
  currency: string | null;
  rate: string | null;
  as_of: string | null;
  source: string | null;
  stale: boolean | null;
  weight: unknown;
};

type TChargeRow = { current: boolean; subscription_id: string; cost_minor: unknown; count: unknown };

/** One period's sums of a row, base currency. */
type TSums = { in: bigint; refundOut: bigint; cost: bigint; allocated: bigint; count: number };
const noSums = (): TSums => ({ in: 0n, refundOut: 0n, cost: 0n, allocated: 0n, count: 0 });

const NULL_KEY = "business";

export type TProjectHealthRow = {
  project_id: string | null;
  name: string | null;
  revenue_minor: number;
  direct_costs_minor: number;
  allocated_costs_minor: number;
  margin_minor: number;
  margin_ratio: number | null;
  previous_margin_minor: number;
  margin_change_minor: number;
  capacity: ReturnType<typeof capacityOf>;
  score: number | null;
  status: THealthStatus | null;
  reasons: THealthReason[];
};

export async function getProjectHealth(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TBusinessScope,
  query: { period: TPeriod; displayCurrency?: string },
) {
  const { period } = query;
  const previous = previousPeriod(period);
  const span = Prisma.sql`${eventScopeSql("e", day.ownerId, scope)} AND ${actualMoneySql("e")}
    AND e.occurred_on BETWEEN ${daySql(previous.from)} AND ${daySql(period.to)}`;
  const isCurrent = Prisma.sql`(e.occurred_on >= ${daySql(period.from)})`;
  const cost = Prisma.sql`(${directionSql("e")} = 'out' AND e.type <> 'refund')`;

  // One scan of both periods, grouped two ways at once (see flows.ts): by (period, project,
  // type, direction) for the sums, and by frozen rate for the envelope's fx. The inner SELECT
  // names the period once, so both grouping sets can use it.
  const flows = db.$queryRaw<TFlowRow[]>`
    SELECT r.kind, r.current, r.project_id::text AS project_id, r.type, r.direction, r.amount::text AS amount,
           r.count::text AS count, r.currency::text AS currency, r.fx_rate::text AS rate,
           to_char(r.fx_as_of, 'YYYY-MM-DD') AS as_of, r.fx_source AS source,
           ${staleSql(Prisma.sql`r.late`, Prisma.sql`r.fx_as_of`)} AS stale, r.weight::text AS weight
      FROM (SELECT CASE WHEN GROUPING(e.type, e.direction) <> 0 THEN 'rate' ELSE 'flow' END AS kind,
                   e.current, e.project_id, e.type, e.direction, e.currency, e.fx_rate, e.fx_as_of, e.fx_source,
                   SUM(e.base_amount_minor) AS amount, COUNT(*) AS count,
                   SUM(abs(e.base_amount_minor)) AS weight, ${lateRateSql("e")} AS late
              FROM (SELECT e.project_id, e.type, e.direction, e.currency, e.fx_rate, e.fx_as_of, e.fx_source,
                           e.base_amount_minor, e.occurred_on, e.created_at, ${isCurrent} AS current
                      FROM financial_events e
                     WHERE ${span}) e
             GROUP BY GROUPING SETS ((e.current, e.project_id, e.type, e.direction),
                                     (e.currency, e.fx_rate, e.fx_as_of, e.fx_source))) r`;
  // The business's subscriptions that split over projects or carry a capacity (a bounded list).
  const subscriptions = db.subscription.findMany({
    where: {
      ownerId: day.ownerId,
      businessId: scope.businessId,
      OR: [{ allocations: { some: {} } }, { capacity: { isNot: null } }],
    },
    select: {
      id: true,
      name: true,
      projectId: true,
      status: true,
      allocations: { select: { projectId: true, shareBps: true } },
      capacity: { select: { unit: true, total: true, used: true } },
    },
  });
  const projects = db.project.findMany({
    where: { ownerId: day.ownerId, businessId: scope.businessId },
    select: { id: true, name: true, archivedAt: true },
  });

  const [groupRows, subscriptionRows, projectRows, coverage] = await Promise.all([
    flows,
    subscriptions,
    projects,
    scopeCoverageOf(db, day, scope),
  ]);

  // Business-level costs of the allocated subscriptions, per period (their partial index).
  const allocations = new Map<string, TAllocationShare[]>(
    subscriptionRows.filter((s) => s.allocations.length > 0).map((s) => [s.id, s.allocations]),
  );
  const chargeRows =
    allocations.size === 0
      ? []
      : await db.$queryRaw<TChargeRow[]>`
    SELECT ${isCurrent} AS current, e.subscription_id::text AS subscription_id,
           COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${cost}), 0)::text AS cost_minor,
           COUNT(*) FILTER (WHERE ${cost})::text AS count
      FROM financial_events e
     WHERE e.subscription_id = ANY(${[...allocations.keys()]}::uuid[]) AND ${span} AND e.project_id IS NULL
     GROUP BY 1, 2`;

  // Sums per row key (a project id, or NULL_KEY) and period.
  const sums = { current: new Map<string, TSums>(), previous: new Map<string, TSums>() };
  const sumsOf = (current: boolean, key: string) => {
    const map = current ? sums.current : sums.previous;
    let entry = map.get(key);
    if (!entry) map.set(key, (entry = noSums()));
    return entry;
  };
  const conversions: TSummaryConversion[] = [];
  for (const row of groupRows) {
    if (row.kind === "rate") {
      // Rows without a frozen rate count in the sums and have no conversion.
      if (row.rate !== null) {
        conversions.push(
          snapshotConversionOf({
            currency: row.currency!,
            rate: row.rate,
            as_of: row.as_of!,
            source: row.source!,
            stale: row.stale === true,
            weight: row.weight,
          }),
        );
      }
      continue;
    }
    const direction = moneyDirection(row.type!, row.direction);
    if (direction === null) continue;
    const entry = sumsOf(row.current!, row.project_id ?? NULL_KEY);
    const amount = toBigInt(row.amount);
    if (direction === "in") entry.in += amount;
    else if (row.type === "refund") entry.refundOut += amount;
    else entry.cost += amount;
    entry.count += Number(row.count);
  }
  for (const current of [true, false]) {
    const charges = chargeRows.filter((row) => row.current === current);
    const costBySubscription = new Map(charges.map((row) => [row.subscription_id, toBigInt(row.cost_minor)]));
    const business = sumsOf(current, NULL_KEY);
    for (const [projectId, part] of allocateCosts(costBySubscription, allocations)) {
      sumsOf(current, projectId).allocated += part;
      business.cost -= part; // carried by the project, no longer the business's own
    }
    // Every project with an allocation of a subscription that charged counts those events.
    for (const row of charges) {
      for (const allocation of allocations.get(row.subscription_id) ?? []) {
        sumsOf(current, allocation.projectId).count += Number(row.count);
      }
    }
  }

  // Capacity items: an active subscription's belong to its project, to each project it is
  // allocated to, or else to the business-level row.
  const capacity = new Map<string, TCapacityFact[]>();
  for (const s of subscriptionRows) {
    if (!s.capacity || s.status !== "active") continue;
    const fact: TCapacityFact = { subscriptionId: s.id, name: s.name, ...s.capacity };
    const keys = s.projectId ? [s.projectId] : s.allocations.length > 0 ? s.allocations.map((a) => a.projectId) : [NULL_KEY];
    for (const key of keys) capacity.set(key, [...(capacity.get(key) ?? []), fact]);
  }

  // Active projects always; an archived one only when it has figures in either period.
  const listed = projectRows
    .filter((p) => p.archivedAt === null || sums.current.has(p.id) || sums.previous.has(p.id))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const keys = [...listed.map((p) => p.id), NULL_KEY];

  const components: Record<string, bigint> = {};
  for (const key of keys) {
    for (const [period, map] of [
      ["current", sums.current],
      ["previous", sums.previous],
    ] as const) {
      const s = map.get(key) ?? noSums();
      components[`${key}:${period}:revenue`] = s.in - s.refundOut;
      components[`${key}:${period}:direct`] = s.cost;
      components[`${key}:${period}:allocated`] = s.allocated;
    }
  }
  const displayed = await toDisplay(db, day, { displayCurrency: query.displayCurrency, components, conversions });
  const shown = displayed.amounts;
  const envelopeCoverage = envelopeOf(coverage, PROJECT_HEALTH_COVERAGE);
  const coverageStatuses = { revenue: coverage.domains.revenue.status, expenses: coverage.domains.expenses.status };

  const rowOf = (key: string, name: string | null, at: string): TProjectHealthRow => {
    const shownOf = (period: "current" | "previous", part: "revenue" | "direct" | "allocated") =>
      shown[`${key}:${period}:${part}`]!;
    const margin = shownOf("current", "revenue") - shownOf("current", "direct") - shownOf("current", "allocated");
    const previousMargin = shownOf("previous", "revenue") - shownOf("previous", "direct") - shownOf("previous", "allocated");
    const facts = capacity.get(key) ?? [];
    const isProject = key !== NULL_KEY;
    // The score reads the base amounts: it does not change with the display currency.
    const base = (period: "current" | "previous", part: "revenue" | "direct" | "allocated") =>
      components[`${key}:${period}:${part}`]!;
    const health = isProject
      ? scoreProject({
          currency: day.baseCurrency,
          period,
          previous,
          revenueMinor: base("current", "revenue"),
          costsMinor: base("current", "direct") + base("current", "allocated"),
          marginMinor: base("current", "revenue") - base("current", "direct") - base("current", "allocated"),
          previousMarginMinor: base("previous", "revenue") - base("previous", "direct") - base("previous", "allocated"),
          capacity: facts,
          coverage: coverageStatuses,
          countedEvents: (sums.current.get(key)?.count ?? 0) + (sums.previous.get(key)?.count ?? 0),
        })
      : null;
    return {
      project_id: isProject ? key : null,
      name,
      revenue_minor: toMinor(shownOf("current", "revenue"), `${at}.revenue_minor`),
      direct_costs_minor: toMinor(shownOf("current", "direct"), `${at}.direct_costs_minor`),
      allocated_costs_minor: toMinor(shownOf("current", "allocated"), `${at}.allocated_costs_minor`),
      margin_minor: toMinor(margin, `${at}.margin_minor`),
      margin_ratio: ratio(margin, shownOf("current", "revenue")),
      previous_margin_minor: toMinor(previousMargin, `${at}.previous_margin_minor`),
      margin_change_minor: toMinor(margin - previousMargin, `${at}.margin_change_minor`),
      capacity: capacityOf(facts),
      score: health?.score ?? null,
      status: health?.status ?? null,
      reasons: health?.reasons ?? [],
    };
  };

  return {
    data: {
      currency: displayed.currency,
      base_currency: displayed.baseCurrency,
      business_id: scope.businessId,
      from: period.from,
      to: period.to,
      previous: { from: previous.from, to: previous.to },
      projects: [
        ...listed.map((p, i) => rowOf(p.id, p.name, `projects.${i}`)),
        rowOf(NULL_KEY, null, `projects.${listed.length}`),
      ],
    },
    fx: displayed.fx,
    coverage: envelopeCoverage,
  };
}
