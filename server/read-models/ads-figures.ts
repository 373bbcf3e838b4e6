// The ads read model's formulas (pinned-wave2 §2.8), pure so they can be property-tested:
//   ctr = clicks / impressions        a §1.4 ratio (4 decimals, half even), null at 0 impressions
//   cpc = divideHalfEven(spend, clicks) minor units, null at 0 clicks
//   daily: every day of the period, a day without spend is 0
import { addDays, daysBetween } from "../../lib/days";
import { divideHalfEven } from "../fx/money";
import { ratio } from "./read-model.schema";

/** Click-through rate: clicks / impressions (4 decimals, half even); null without impressions. */
export function clickThroughRate(clicks: bigint, impressions: bigint): number | null {
  return ratio(clicks, impressions);
}

/** Cost per click in minor units, half even; null without clicks. */
export function costPerClick(spendMinor: bigint, clicks: bigint): bigint | null {
  return clicks === 0n ? null : divideHalfEven(spendMinor, clicks);
}

/** Every day of [from, to] with its spend from `byDay` (a missing day is 0), in date order. */
export function dailySeries<T>(
  from: string,
  to: string,
  byDay: ReadonlyMap<string, T>,
  zero: T,
): Array<{ date: string; value: T }> {
  const days = daysBetween(from, to) + 1;
  const series: Array<{ date: string; value: T }> = [];
  for (let k = 0; k < days; k++) {
    const date = addDays(from, k);
    series.push({ date, value: byDay.get(date) ?? zero });
  }
  return series;
}
