// How a simulation's changes alter the forecast's inputs (pinned-wave2 §3.5), pure. The service
// (simulation-service.ts) has checked the changes, looked their records up and valued every
// amount at today's rate; here they only date and apply, so the projection that follows is the
// forecast's own (server/read-models/forecast.ts), run on altered inputs.
//
// - add_expense / add_revenue: a committed out / in on `on`; with billing_interval it rolls from
//   `on` as a subscription's charges do (K7: the anchor day, clamped to the month end).
// - ad_budget_change: a committed out of delta_daily every day from `from` (negative: less out).
// - cancel_subscription: its charges dated from `from` on are dropped; change_subscription: they
//   cost the new amount. Planned events (a recurring expense's first charge) stay as they are.
// - add_reservation / release_reservation: reserved moves by the valued difference.
import { addDays, daysBetween } from "../../lib/days";
import { chargeDates, type TBillingInterval } from "../read-models/commitments-calendar";
import type { TCommitment } from "../read-models/commitments";
import type { TForecastInputs } from "../read-models/forecast";
import type { TSummaryConversion } from "../read-models/display";

/** The days an addition falls on within [today, end]: once on `on`, or rolled from it. */
export function additionDates(input: { on: string; billingInterval?: TBillingInterval }, today: string, end: string): string[] {
  if (input.billingInterval === undefined) return input.on >= today && input.on <= end ? [input.on] : [];
  return chargeDates({ nextChargeOn: input.on, interval: input.billingInterval, today, end });
}

/** Every day from `from` to `end` (none when from is after end). */
export function dailyDates(from: string, end: string): string[] {
  if (from > end) return [];
  return Array.from({ length: daysBetween(from, end) + 1 }, (_, k) => addDays(from, k));
}

/** A change, dated and valued (base amounts at today's rate). */
export type TValuedChange =
  | {
      kind: "commitments";
      /** The change's index (its items' id, `change:<i>`). */
      index: number;
      name: string;
      direction: "in" | "out";
      dates: readonly string[];
      /** One occurrence, in its currency and in the base. */
      amountMinor: bigint;
      currency: string;
      baseAmountMinor: bigint;
    }
  | {
      kind: "subscription";
      subscriptionId: string;
      from: string;
      /** Each charge from `from` on: the new amount (a project: its part), or null when cancelled. */
      charge: { amountMinor: bigint; baseAmountMinor: bigint } | null;
    }
  | { kind: "reserved"; deltaMinor: bigint };

/** The inputs with the changes applied in order; `conversions` (the valuations') join the inputs'. */
export function applyChanges(
  inputs: TForecastInputs,
  changes: readonly TValuedChange[],
  conversions: readonly TSummaryConversion[],
): TForecastInputs {
  let commitments: TCommitment[] = [...inputs.commitments];
  let reservedMinor = inputs.reservedMinor;
  for (const change of changes) {
    switch (change.kind) {
      case "commitments":
        for (const date of change.dates) {
          commitments.push({
            kind: "planned",
            id: `change:${change.index}`,
            name: change.name,
            date,
            direction: change.direction,
            amountMinor: change.amountMinor,
            currency: change.currency,
            baseAmountMinor: change.baseAmountMinor,
            overdue: false,
            shareBps: null,
          });
        }
        break;
      case "subscription": {
        const affected = (item: TCommitment) =>
          item.kind === "subscription" && item.id === change.subscriptionId && item.date >= change.from;
        const charge = change.charge;
        commitments =
          charge === null
            ? commitments.filter((item) => !affected(item))
            : commitments.map((item) =>
                affected(item) ? { ...item, amountMinor: charge.amountMinor, baseAmountMinor: charge.baseAmountMinor } : item,
              );
        break;
      }
      case "reserved":
        reservedMinor += change.deltaMinor;
        break;
    }
  }
  return { ...inputs, commitments, reservedMinor, conversions: [...inputs.conversions, ...conversions] };
}
