// Burn and runway (pinned-wave2 §2.1 K8), pure. The 90-day direction sums of counted actuals
// come from SQL (`in90`, `out90` over [R − 89, R], R = the reference day: today, or a brief's
// date); this file turns them into monthly burn and runway.
//
//   net_burn_90 = out90 − in90
//   monthly_net_burn   = net_burn_90 > 0 ? divideHalfEven(net_burn_90, 3) : 0
//   monthly_gross_burn = out90 > 0 ? divideHalfEven(out90, 3) : 0
//   runway: no cash → unknown; net_burn_90 ≤ 0 → not_burning; cash ≤ 0 → 0 days (finite);
//           else days = floor(cash × 90 / net_burn_90), runs_out_on = R + days (finite).
import { addDays, daysBetween } from "../../lib/days";
import { divideHalfEven, isExactMinor } from "../fx/money";

/** The window K8 measures burn over: 90 days ending on (and including) the reference day. */
export const BURN_WINDOW_DAYS = 90;

export type TRunwayStatus = "finite" | "not_burning" | "unknown";
export type TRunwayValue = { days: number | null; runs_out_on: string | null; status: TRunwayStatus };

export type TBurn = { netBurn90: bigint; monthlyNetMinor: bigint; monthlyGrossMinor: bigint };

/** [R − 89, R]: the days whose counted actuals make `in90` and `out90`. */
export function burnWindow(referenceDay: string): { from: string; to: string } {
  return { from: addDays(referenceDay, -(BURN_WINDOW_DAYS - 1)), to: referenceDay };
}

/** Monthly net and gross burn from the window's in and out sums (base minor units). */
export function burnOf(in90: bigint, out90: bigint): TBurn {
  const netBurn90 = out90 - in90;
  return {
    netBurn90,
    monthlyNetMinor: netBurn90 > 0n ? divideHalfEven(netBurn90, 3n) : 0n,
    monthlyGrossMinor: out90 > 0n ? divideHalfEven(out90, 3n) : 0n,
  };
}

/** Runway on the reference day from the cash position (null: no snapshot) and the 90-day net burn. */
export function runwayOf(cashMinor: bigint | null, netBurn90: bigint, referenceDay: string): TRunwayValue {
  if (cashMinor === null) return { days: null, runs_out_on: null, status: "unknown" };
  if (netBurn90 <= 0n) return { days: null, runs_out_on: null, status: "not_burning" };
  // floor, not truncation: cash > 0 here, so both agree; cash ≤ 0 has run out already.
  const days = cashMinor <= 0n ? 0n : (cashMinor * BigInt(BURN_WINDOW_DAYS)) / netBurn90;
  // Beyond the calendar (after 9999-12-31) or the exact JSON range: finite, but shown as null
  // rather than a date or a number that is not exact.
  const lastDays = BigInt(daysBetween(referenceDay, LAST_DAY));
  return {
    days: isExactMinor(days) ? Number(days) : null,
    runs_out_on: days <= lastDays ? addDays(referenceDay, Number(days)) : null,
    status: "finite",
  };
}

const LAST_DAY = "9999-12-31";
