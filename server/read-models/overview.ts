// The Overview (pinned-wave2 §2.10): GET /v1/overview, the whole owner at a glance. Built from
// the kernel: cash (K6, with each business's from the same snapshots), reserved and the out
// commitments of 30 days (K7, free capital's rule), flows of counted actuals (one scan for the
// 90-day burn, the last 30 days, the month to date and each business's last 30 days), runway (K8, R = today), the latest
// alerts and the pending approvals. With display_currency each component is converted once
// and the nets and free capital recomputed from them; runway is counted in the base.
import { dayParts, formatDay } from "../../lib/days";
import { findRecentAlerts } from "../alerts/alert-service";
import type { TDbOrTx } from "../db/client";
import { countUnread } from "../notifications/notification-service";
import type { TClock } from "../shared/clock";
import { burnOf, burnWindow, runwayOf } from "./burn";
import { cashPositionsByBusiness, toCashDto } from "./cash";
import { loadCommitments, loadReserved, outgoing, toCommitmentItemDtos } from "./commitments";
import { envelopeCoverage } from "./coverage";
import { toDisplay, toMinor } from "./display";
import { actualFlows } from "./flows";
import { freeCapitalWindow } from "./forecast-window";
import {
  OVERVIEW_ALERTS_LIMIT,
  OVERVIEW_HORIZON_DAYS,
  UPCOMING_COSTS_LIMIT,
  type TOverview,
  type TOverviewQuery,
} from "./overview.schema";
import { readOwnerDay, resolvePeriod } from "./period";
import { COVERAGE_DOMAINS } from "./read-model.schema";
import { OWNER_SCOPE } from "./scope";

export async function getOverview(db: TDbOrTx, input: { ownerId: string; clock: TClock; query: TOverviewQuery }) {
  const day = await readOwnerDay(db, input.ownerId, input.clock);
  const { today } = day;
  const window = freeCapitalWindow(OVERVIEW_HORIZON_DAYS, today);
  const last30 = resolvePeriod({}, today);
  const [year, month] = dayParts(today);
  const monthToDate = { from: formatDay(year, month, 1), to: today };
  const burn90 = burnWindow(today);

  // Independent reads, issued together: on PostgreSQL's pool they run side by side (a request
  // is a dozen short statements, so their round trips dominate); a transaction or PGlite's one
  // connection simply queues them.
  const [cash, reserved, commitments, actuals, businesses, alerts, pendingApprovals, unread, coverage] = await Promise.all([
    cashPositionsByBusiness(db, day),
    loadReserved(db, day, OWNER_SCOPE),
    loadCommitments(db, day, OWNER_SCOPE, window.to),
    actualFlows(db, day, OWNER_SCOPE, [burn90, last30, monthToDate], { byBusiness: true }),
    db.business.findMany({
      where: { ownerId: day.ownerId },
      select: { id: true, name: true, currency: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    findRecentAlerts(db, day.ownerId, { limit: OVERVIEW_ALERTS_LIMIT }),
    db.approval.count({ where: { ownerId: day.ownerId, status: "pending" } }),
    countUnread(db, day.ownerId),
    envelopeCoverage(db, day, OWNER_SCOPE, COVERAGE_DOMAINS),
  ]);
  const upcoming = outgoing(commitments);
  const [flow90, flow30, flowMonth] = [actuals.flows[0]!, actuals.flows[1]!, actuals.flows[2]!];

  const upcomingTotal = upcoming.items.reduce((sum, item) => sum + item.baseAmountMinor, 0n);
  const runway = runwayOf(cash.owner?.amountMinor ?? null, burnOf(flow90.inMinor, flow90.outMinor).netBurn90, today);

  const components: Record<string, bigint> = {
    reserved: reserved.amountMinor,
    upcoming: upcomingTotal,
    last30_in: flow30.inMinor,
    last30_out: flow30.outMinor,
    month_in: flowMonth.inMinor,
    month_out: flowMonth.outMinor,
  };
  if (cash.owner) components.cash = cash.owner.amountMinor;
  for (const business of businesses) {
    const flow = actuals.byBusiness.get(business.id)?.[1];
    components[`${business.id}:in`] = flow?.inMinor ?? 0n;
    components[`${business.id}:out`] = flow?.outMinor ?? 0n;
    const position = cash.businesses.get(business.id);
    if (position) components[`${business.id}:cash`] = position.amountMinor;
  }
  const displayed = await toDisplay(db, day, {
    displayCurrency: input.query.display_currency,
    components,
    conversions: [...(cash.owner?.conversions ?? []), ...reserved.conversions, ...upcoming.conversions, ...actuals.conversions],
  });
  const shown = displayed.amounts;
  const flowDto = (inMinor: bigint, outMinor: bigint, at: string) => ({
    in_minor: toMinor(inMinor, `${at}.in_minor`),
    out_minor: toMinor(outMinor, `${at}.out_minor`),
    net_minor: toMinor(inMinor - outMinor, `${at}.net_minor`),
  });

  const data: TOverview = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    today,
    cash: toCashDto(cash.owner, cash.owner ? shown.cash : undefined, "cash"),
    free_capital_30d_minor: cash.owner
      ? toMinor(shown.cash! - shown.reserved! - shown.upcoming!, "free_capital_30d_minor")
      : null,
    runway,
    last_30_days: flowDto(shown.last30_in!, shown.last30_out!, "last_30_days"),
    month_to_date: { from: monthToDate.from, ...flowDto(shown.month_in!, shown.month_out!, "month_to_date") },
    upcoming_costs: toCommitmentItemDtos(upcoming.items, "upcoming_costs").slice(0, UPCOMING_COSTS_LIMIT),
    upcoming_total_minor: toMinor(shown.upcoming!, "upcoming_total_minor"),
    alerts,
    pending_approvals: pendingApprovals,
    unread_notifications: unread,
    businesses: businesses.map((business, i) => {
      const businessCash = shown[`${business.id}:cash`];
      return {
        business_id: business.id,
        name: business.name,
        currency: business.currency,
        net_30d_minor: toMinor(shown[`${business.id}:in`]! - shown[`${business.id}:out`]!, `businesses.${i}.net_30d_minor`),
        cash_minor: businessCash === undefined ? null : toMinor(businessCash, `businesses.${i}.cash_minor`),
      };
    }),
  };
  return { data, fx: displayed.fx, coverage };
}
