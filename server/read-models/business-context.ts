// The business context (pinned-wave2 §2.12): GET /v1/businesses/{id}/context, one compact
// document to read before acting on a business (sized for a prompt: every list is bounded).
// Its figures are the other read models' answers, called here, never recomputed:
//   summary_30d           GET …/financial-summary over the default period (the last 30 days)
//   forecast_30d_totals   GET …/forecast?horizon=30 (totals, ending committed balance)
//   free_capital_30d      GET /v1/free-capital?business_id=…&horizon_days=30
//   runway                the summary's (K8, R = today)
//   upcoming_7_days       the forecast's items dated in the next 7 days (both directions)
// and beside them bounded lists of records: active projects, the 10 largest active
// subscriptions by monthly cost, the latest 10 alerts, the approvals waiting that concern the
// business, its integrations, and the agents whose grants cover it.
import { addDays } from "../../lib/days";
import { toAlertDto } from "../alerts/alert-service";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { amountsWithin } from "../fx/base-amounts";
import { divideHalfEven } from "../fx/money";
import { buildFxSummary } from "../fx/fx-summary";
import type { TClock } from "../shared/clock";
import type { TBillingInterval } from "./commitments-calendar";
import { burnWindow } from "./burn";
import { envelopeOf, scopeCoverageOf } from "./coverage";
import type { TReadScope } from "./scope";
import { currentAmounts, toBigInt, toMinor } from "./display";
import { getFinancialSummary } from "./financial-summary";
import { actualFlows } from "./flows";
import { forecastOf } from "./forecast";
import { forecastWindow, freeCapitalWindow } from "./forecast-window";
import { freeCapitalOf } from "./free-capital";
import { readOwnerDay, resolvePeriod } from "./period";
import { COVERAGE_DOMAINS } from "./read-model.schema";
import type { TBusinessContext } from "./business-context.schema";

export const CONTEXT_HORIZON_DAYS = 30;
export const CONTEXT_UPCOMING_DAYS = 7;
export const CONTEXT_TOP_SUBSCRIPTIONS = 10;
export const CONTEXT_ALERTS = 10;

/**
 * A subscription's cost per month in the base currency, from its charge converted at today's
 * rate: week × 52 / 12, month as is, quarter / 3, year / 12, each half even.
 */
export function monthlyCost(baseAmountMinor: bigint, interval: TBillingInterval): bigint {
  switch (interval) {
    case "week":
      return divideHalfEven(baseAmountMinor * 52n, 12n);
    case "month":
      return baseAmountMinor;
    case "quarter":
      return divideHalfEven(baseAmountMinor, 3n);
    case "year":
      return divideHalfEven(baseAmountMinor, 12n);
  }
}

/** The grant resources that cover the business as a whole (a project grant covers only its project). */
function coveringResources(businessId: string): string[] {
  return ["*", `business:${businessId}`];
}

/** Pending approvals whose terms name the business: its id, one of its projects or integrations, or a grant on it. */
async function pendingApprovalsOf(
  db: TDbOrTx,
  ownerId: string,
  businessId: string,
  projectIds: string[],
  integrationIds: string[],
): Promise<number> {
  const resources = [`business:${businessId}`, ...projectIds.map((id) => `project:${id}`)];
  const [row] = await db.$queryRaw<Array<{ count: unknown }>>`
    SELECT COUNT(*) AS count FROM approvals a
     WHERE a.owner_id = ${ownerId}::uuid AND a.status = 'pending'
       AND (a.params->>'business_id' = ${businessId}
            OR a.params->>'project_id' = ANY(${projectIds}::text[])
            OR a.params->>'integration_id' = ANY(${integrationIds}::text[])
            OR a.params->'grant'->>'resource' = ANY(${resources}::text[]))`;
  return Number(toBigInt(row?.count));
}

export async function getBusinessContext(
  db: TDbOrTx,
  input: {
    ownerId: string;
    clock: TClock;
    businessId: string;
    displayCurrency?: string;
    /** Checks the caller may read the business (an agent's grant), after its 404 and before any figure. */
    authorize?: (scope: TReadScope) => Promise<void>;
  },
) {
  // The owner's day and the business itself (its name and currency), read together; unknown or
  // another owner's business → 404.
  const [day, business] = await Promise.all([
    readOwnerDay(db, input.ownerId, input.clock),
    db.business.findFirst({
      where: { id: input.businessId, ownerId: input.ownerId },
      select: { id: true, name: true, currency: true },
    }),
  ]);
  if (!business) throw AppError.notFound("business");
  const scope = { kind: "business" as const, businessId: business.id };
  await input.authorize?.(scope);
  const { today } = day;
  const displayCurrency = input.displayCurrency;
  const horizon = forecastWindow({ horizon: CONTEXT_HORIZON_DAYS }, today);
  const upcomingEnd = addDays(today, CONTEXT_UPCOMING_DAYS - 1);

  // The 90 days to today, read once: the forecast's run rate and the summary's burn and runway.
  const burnFlows = actualFlows(db, day, scope, [burnWindow(today)]);
  // Independent reads, issued together (see overview.ts).
  const [projects, integrations, summary, forecast, freeCapital, subscriptions, alerts, agents, coverage] = await Promise.all([
    db.project.findMany({
      where: { ownerId: day.ownerId, businessId: scope.businessId },
      select: { id: true, name: true, archivedAt: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
    db.integration.findMany({
      where: { ownerId: day.ownerId, businessId: scope.businessId },
      select: { id: true, provider: true, status: true, lastSyncAt: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    // Built by the summary, forecast and free capital themselves: a figure of theirs beyond the
    // exact range is named within the part of the context it makes.
    amountsWithin(
      "summary_30d",
      getFinancialSummary(db, day, scope, { ...resolvePeriod({}, today), displayCurrency }, { burnFlows }),
    ),
    amountsWithin("forecast_30d_totals", forecastOf(db, day, scope, horizon, displayCurrency, { runRateFlows: burnFlows })),
    amountsWithin(
      "free_capital_30d_minor",
      freeCapitalOf(db, day, scope, freeCapitalWindow(CONTEXT_HORIZON_DAYS, today), displayCurrency),
    ),
    db.subscription.findMany({
      where: { ownerId: day.ownerId, businessId: scope.businessId, status: "active" },
      select: { id: true, name: true, amountMinor: true, currency: true, billingInterval: true },
    }),
    db.alert.findMany({
      where: { ownerId: day.ownerId, businessId: scope.businessId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: CONTEXT_ALERTS,
    }),
    db.agent.findMany({
      where: {
        ownerId: day.ownerId,
        status: { not: "revoked" },
        grants: { some: { resource: { in: coveringResources(scope.businessId) } } },
      },
      select: {
        id: true,
        name: true,
        status: true,
        grants: {
          where: { resource: { in: coveringResources(scope.businessId) } },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        },
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    scopeCoverageOf(db, day, scope),
  ]);
  const pendingApprovals = await pendingApprovalsOf(
    db,
    day.ownerId,
    scope.businessId,
    projects.map((p) => p.id),
    integrations.map((i) => i.id),
  );

  // The largest subscriptions by monthly cost (base, today's rate).
  const valued = await currentAmounts(
    db,
    day,
    subscriptions.map((s) => ({ amountMinor: s.amountMinor, currency: s.currency })),
  );
  const top = subscriptions
    .map((s, i) => ({ s, i, monthly: monthlyCost(valued.amounts[i]!, s.billingInterval as TBillingInterval) }))
    .sort((a, b) =>
      a.monthly === b.monthly ? a.s.name.localeCompare(b.s.name) || a.s.id.localeCompare(b.s.id) : a.monthly > b.monthly ? -1 : 1,
    )
    .slice(0, CONTEXT_TOP_SUBSCRIPTIONS);
  // One FxSummary for the whole document, by the rules of every aggregate (pinned-wave3 §1.4):
  // estimated_share = |current-rate amounts| / |all amounts| over every part's components.
  const fx = buildFxSummary({
    baseCurrency: day.baseCurrency,
    displayCurrency: summary.data.currency,
    conversions: [
      ...summary.fxBasis.conversions,
      ...forecast.fxBasis.conversions,
      ...freeCapital.fxBasis.conversions,
      ...top.map(({ i }) => valued.conversions[i]!),
    ],
    displayFx: summary.fxBasis.displayFx,
    today: day.ratesOn,
  }).fx;

  const limit = (value: bigint | null, field: string) => (value === null ? null : toMinor(value, field));
  const data: TBusinessContext = {
    currency: summary.data.currency,
    base_currency: summary.data.base_currency,
    business: { id: business.id, name: business.name, currency: business.currency },
    projects: projects.filter((p) => p.archivedAt === null).map((p) => ({ id: p.id, name: p.name })),
    summary_30d: {
      net_revenue_minor: summary.data.net_revenue_minor,
      outflow_minor: summary.data.outflow_minor,
      net_minor: summary.data.net_minor,
    },
    forecast_30d_totals: {
      committed_in_minor: forecast.data.totals.committed_in_minor,
      committed_out_minor: forecast.data.totals.committed_out_minor,
      run_rate_in_minor: forecast.data.totals.run_rate_in_minor,
      run_rate_out_minor: forecast.data.totals.run_rate_out_minor,
      ending_balance_committed_minor: forecast.data.ending_balance_committed_minor,
    },
    free_capital_30d_minor: freeCapital.data.free_capital_minor,
    runway: summary.data.runway,
    top_subscriptions: top.map(({ s, monthly }, i) => ({
      id: s.id,
      name: s.name,
      amount_minor: toMinor(s.amountMinor, `top_subscriptions.${i}.amount_minor`),
      currency: s.currency,
      billing_interval: s.billingInterval as TBillingInterval,
      monthly_base_minor: toMinor(monthly, `top_subscriptions.${i}.monthly_base_minor`),
    })),
    upcoming_7_days: forecast.data.items.filter((item) => item.date <= upcomingEnd),
    open_alerts: alerts.map(toAlertDto),
    pending_approvals: pendingApprovals,
    integrations: integrations
      .filter((i) => i.status !== "disconnected")
      .map((i) => ({ id: i.id, provider: i.provider, status: i.status, last_sync_at: i.lastSyncAt?.toISOString() ?? null })),
    agents: agents.map((agent, i) => ({
      id: agent.id,
      name: agent.name,
      status: agent.status as "active" | "suspended",
      grants: agent.grants.map((grant, j) => ({
        scope: grant.scope,
        resource: grant.resource,
        level: grant.level as "recommend" | "execute",
        daily_limit_minor: limit(grant.dailyLimitMinor, `agents.${i}.grants.${j}.daily_limit_minor`),
        monthly_limit_minor: limit(grant.monthlyLimitMinor, `agents.${i}.grants.${j}.monthly_limit_minor`),
        currency: grant.currency,
        over_limit: grant.overLimit as "approval" | "deny",
      })),
    })),
  };
  return {
    data,
    fx,
    coverage: envelopeOf(coverage, COVERAGE_DOMAINS),
  };
}
