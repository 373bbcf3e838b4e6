// What a held ad budget change would commit if the owner approved it now (pinned-wave3 §1.1,
// §1.3), shown with its pending approval: the campaign's budget as the service knows it, the one
// the agent claimed, what the change would count against the limits, and its daily budget over
// the forecast's default window from its effective_on (the commitment a forecast would show).
// One query of the known budgets for a whole page of approvals.
import { addDays, daysBetween } from "../../lib/days";
import type { TAdBudgetEffect } from "../approvals/approval.schema";
import type { TDbOrTx } from "../db/client";
import { toJsonAmount } from "../fx/base-amounts";
import { ownerSettings } from "../ledger/ledger-service";
import { DEFAULT_HORIZON_DAYS } from "../read-models/forecast-window";
import type { TCreateAdBudgetChangeInput } from "./ad-budget-change.schema";
import { countedIncrease, knownBudgetOf, knownDailyBudgets } from "./known-budget";

export async function heldChangeEffects(
  db: TDbOrTx,
  ownerId: string,
  inputs: readonly TCreateAdBudgetChangeInput[],
  now: Date,
): Promise<TAdBudgetEffect[]> {
  if (inputs.length === 0) return [];
  const campaignOf = (input: TCreateAdBudgetChangeInput) => ({
    integrationId: input.integration_id,
    campaignId: input.campaign_id,
  });
  const [{ today }, known] = await Promise.all([
    ownerSettings(db, ownerId, now),
    knownDailyBudgets(db, ownerId, inputs.map(campaignOf)),
  ]);
  const to = addDays(today, DEFAULT_HORIZON_DAYS - 1);
  return inputs.map((input) => {
    const next = BigInt(input.new_daily_budget_minor);
    const { previousMinor, countedMinor } = countedIncrease(knownBudgetOf(known, campaignOf(input)), {
      newDailyBudgetMinor: next,
      currency: input.currency,
    });
    // A change held past its effective_on needs a new one to run (params_override): shown from today.
    const effectiveOn = input.effective_on === undefined || input.effective_on < today ? today : input.effective_on;
    const days = effectiveOn > to ? 0 : daysBetween(effectiveOn, to) + 1;
    return {
      integration_id: input.integration_id,
      campaign_id: input.campaign_id,
      currency: input.currency,
      known_previous_daily_budget_minor:
        previousMinor === null ? null : toJsonAmount(previousMinor, "ad_budget_effect.known_previous_daily_budget_minor"),
      claimed_previous_daily_budget_minor: input.previous_daily_budget_minor ?? null,
      new_daily_budget_minor: input.new_daily_budget_minor,
      delta_daily_minor: previousMinor === null ? null : toJsonAmount(next - previousMinor, "ad_budget_effect.delta_daily_minor"),
      counted_daily_minor: toJsonAmount(countedMinor, "ad_budget_effect.counted_daily_minor"),
      effective_on: effectiveOn,
      forecast: { from: today, to, days, committed_minor: exactOrNull(next * BigInt(days)) },
    };
  });
}

/** A product JSON can carry exactly, else null (an agent's huge budget must not break the owner's list). */
function exactOrNull(value: bigint): number | null {
  return Number.isSafeInteger(Number(value)) ? Number(value) : null;
}
