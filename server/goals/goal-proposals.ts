// Goal proposals (pinned-wave2 §3.6): goals worth setting for a scope, computed from its
// financial summary of the last 30 days (burn over 90, runway now), never stored. Accepting one
// is posting it to POST /v1/goals.
//
//   kind       when                          target                                 date
//   save       monthly net burn > 0          3 × monthly net burn                   today + 90
//   spend_cap  30-day outflow > 0            that outflow                           end of next month
//   revenue    30-day net revenue > 0        divideHalfEven(net revenue × 110, 100) today + 30
//   runway     runway finite, < 180 days     target_days 180                        today + 90
//
// Amounts are in the owner's base currency (the summary's). A project's runway is its
// business's (a project has no cash; goal-progress.ts counts it the same way).
import { addDays, addMonthsClamped } from "../../lib/days";
import { formatMinor } from "../../lib/money";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import { divideHalfEven, isExactMinor } from "../fx/money";
import { getFinancialSummary } from "../read-models/financial-summary";
import { DEFAULT_PERIOD_DAYS, readOwnerDay } from "../read-models/period";
import { resolveReadScope } from "../read-models/scope";
import type { TGoalProposal, TGoalProposalsInput } from "./goal.schema";
import { runwayScopeOf, type TGoalScope } from "./goal-progress";

/** Runway below this many days proposes a runway goal of exactly this many. */
export const RUNWAY_PROPOSAL_DAYS = 180;

export async function proposeGoals(
  db: TDbOrTx,
  caller: TCaller,
  input: TGoalProposalsInput,
): Promise<{ proposals: TGoalProposal[] }> {
  const day = await readOwnerDay(db, caller.ownerId, { now: () => caller.now });
  // The schema admits exactly one scope, so never the whole owner.
  const scope = (await resolveReadScope(db, caller.ownerId, input)) as TGoalScope;
  const { today } = day;
  const from = addDays(today, -(DEFAULT_PERIOD_DAYS - 1));
  const summary = (await getFinancialSummary(db, day, scope, { from, to: today })).data;
  const runway =
    scope.kind === "project"
      ? (await getFinancialSummary(db, day, runwayScopeOf(scope), { from: today, to: today })).data.runway
      : summary.runway;
  const currency = summary.currency;
  const money = (minor: bigint) => formatMinor(Number(minor), currency);
  const proposals: TGoalProposal[] = [];

  const monthlyNetBurn = BigInt(summary.burn.monthly_net_minor);
  const saveTarget = 3n * monthlyNetBurn;
  if (monthlyNetBurn > 0n && isExactMinor(saveTarget)) {
    proposals.push({
      kind: "save",
      name: "Save three months of net burn",
      target_amount_minor: Number(saveTarget),
      target_days: null,
      currency,
      target_date: addDays(today, 90),
      rationale:
        `The net burn is ${money(monthlyNetBurn)} a month (the 90 days to ${today}); three months of it as free capital ` +
        `over the next 30 days is ${money(saveTarget)}.`,
    });
  }

  const outflow = BigInt(summary.outflow_minor);
  if (outflow > 0n) {
    proposals.push({
      kind: "spend_cap",
      name: "Keep monthly spending under the last 30 days'",
      target_amount_minor: Number(outflow),
      target_days: null,
      currency,
      target_date: addMonthsClamped(today, 1, 31),
      rationale: `The outflow (expenses and ad spend) was ${money(outflow)} from ${from} to ${today}; cap each month at that.`,
    });
  }

  const netRevenue = BigInt(summary.net_revenue_minor);
  const revenueTarget = divideHalfEven(netRevenue * 110n, 100n);
  if (netRevenue > 0n && isExactMinor(revenueTarget)) {
    proposals.push({
      kind: "revenue",
      name: "Grow net revenue by 10%",
      target_amount_minor: Number(revenueTarget),
      target_days: null,
      currency,
      target_date: addDays(today, 30),
      rationale:
        `The net revenue was ${money(netRevenue)} from ${from} to ${today}; 10% more over the next 30 days is ` +
        `${money(revenueTarget)}.`,
    });
  }

  if (runway.status === "finite" && runway.days !== null && runway.days < RUNWAY_PROPOSAL_DAYS) {
    proposals.push({
      kind: "runway",
      name: `Reach ${RUNWAY_PROPOSAL_DAYS} days of runway`,
      target_amount_minor: null,
      target_days: RUNWAY_PROPOSAL_DAYS,
      currency: null,
      target_date: addDays(today, 90),
      rationale:
        `The runway is ${runway.days} days at the net burn of the last 90 days` +
        `${runway.runs_out_on ? ` (cash runs out on ${runway.runs_out_on})` : ""}; ${RUNWAY_PROPOSAL_DAYS} days is half a year.`,
    });
  }
  return { proposals };
}
