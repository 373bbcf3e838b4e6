// The forecast's day series (pinned-wave2 §2.5), pure: given the commitments per day (K7, in
// one currency), the 90-day run-rate totals, cash and reserved, it lays out [from, to], the
// opening sums of the days before `from`, the two balance lines and the lowest balance.
//
// - The projection starts today (k = 0). Run rate: day k gets floor((k+1)·T/90) − floor(k·T/90)
//   of a 90-day total T, so the days of any span sum exactly to floor(end·T/90) − floor(start·T/90)
//   (90 days sum to T itself), whatever the sign of T.
// - balance_committed(d) = cash − reserved + opening net + Σ_{from..d} (committed_in − committed_out);
//   balance_with_run_rate(d) adds the opening run-rate net and Σ_{from..d} (run_rate_in − run_rate_out).
//   Both are null without cash. lowest_balance is the committed line's minimum (earliest on a tie).
import { addDays, daysBetween } from "../../lib/days";
import { BURN_WINDOW_DAYS } from "./burn";

/** floor(a / b) for b > 0 (BigInt division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

const WINDOW = BigInt(BURN_WINDOW_DAYS);

/** The run-rate share of days k ∈ [startK, endK) of a 90-day total (k = 0: today). */
export function runRateSpan(total: bigint, startK: number, endK: number): bigint {
  if (endK <= startK) return 0n;
  return floorDiv(BigInt(endK) * total, WINDOW) - floorDiv(BigInt(startK) * total, WINDOW);
}

/** Day k's run-rate share of a 90-day total. */
export function runRateDay(total: bigint, k: number): bigint {
  return runRateSpan(total, k, k + 1);
}

/** The commitments dated one day (already summed per kind), in the series' currency. */
export type TDayCommitments = { plannedIn: bigint; plannedOut: bigint; subscriptions: bigint; adBudgets: bigint };

export type TForecastSeriesInput = {
  today: string;
  from: string;
  to: string;
  /** Cash now (K6), or null when the scope has no snapshot. */
  cashMinor: bigint | null;
  reservedMinor: bigint;
  /** Commitments by day (today ≤ day ≤ to); days absent have none. */
  committed: ReadonlyMap<string, TDayCommitments>;
  /** The 90-day run-rate totals: T_in and T_out. */
  runRateIn: bigint;
  runRateOut: bigint;
};

export type TForecastDay = {
  date: string;
  committed_in_minor: bigint;
  committed_out_minor: bigint;
  run_rate_in_minor: bigint;
  run_rate_out_minor: bigint;
  balance_committed_minor: bigint | null;
  balance_with_run_rate_minor: bigint | null;
};

export type TForecastSeries = {
  opening: {
    committed_in_minor: bigint;
    committed_out_minor: bigint;
    run_rate_in_minor: bigint;
    run_rate_out_minor: bigint;
  };
  days: TForecastDay[];
  totals: {
    planned_in_minor: bigint;
    planned_out_minor: bigint;
    subscriptions_minor: bigint;
    ad_budgets_minor: bigint;
    committed_in_minor: bigint;
    committed_out_minor: bigint;
    run_rate_in_minor: bigint;
    run_rate_out_minor: bigint;
  };
  ending_balance_committed_minor: bigint | null;
  ending_balance_with_run_rate_minor: bigint | null;
  lowest_balance: { date: string; amount_minor: bigint } | null;
};

const NONE: TDayCommitments = { plannedIn: 0n, plannedOut: 0n, subscriptions: 0n, adBudgets: 0n };

/** A day's committed out: planned costs, subscription charges and ad budgets. */
const committedOutOf = (day: TDayCommitments) => day.plannedOut + day.subscriptions + day.adBudgets;

export function buildForecastSeries(input: TForecastSeriesInput): TForecastSeries {
  const { today, from, to } = input;
  if (from < today || to < from) throw new RangeError(`A forecast runs today ≤ from ≤ to (${today}, ${from}, ${to})`);

  // Opening: the days [today, from − 1], summed.
  const openingDays = daysBetween(today, from);
  let openingIn = 0n;
  let openingOut = 0n;
  for (let k = 0; k < openingDays; k++) {
    const day = input.committed.get(addDays(today, k)) ?? NONE;
    openingIn += day.plannedIn;
    openingOut += committedOutOf(day);
  }
  const opening = {
    committed_in_minor: openingIn,
    committed_out_minor: openingOut,
    run_rate_in_minor: runRateSpan(input.runRateIn, 0, openingDays),
    run_rate_out_minor: runRateSpan(input.runRateOut, 0, openingDays),
  };

  const totals = {
    planned_in_minor: 0n,
    planned_out_minor: 0n,
    subscriptions_minor: 0n,
    ad_budgets_minor: 0n,
    committed_in_minor: 0n,
    committed_out_minor: 0n,
    run_rate_in_minor: 0n,
    run_rate_out_minor: 0n,
  };
  const cash = input.cashMinor;
  let committedLine =
    cash === null ? null : cash - input.reservedMinor + opening.committed_in_minor - opening.committed_out_minor;
  let runRateNet = opening.run_rate_in_minor - opening.run_rate_out_minor;
  let lowest: TForecastSeries["lowest_balance"] = null;
  const days: TForecastDay[] = [];
  const length = daysBetween(from, to) + 1;
  for (let i = 0; i < length; i++) {
    const date = addDays(from, i);
    const k = openingDays + i;
    const day = input.committed.get(date) ?? NONE;
    const committedIn = day.plannedIn;
    const committedOut = committedOutOf(day);
    const rateIn = runRateDay(input.runRateIn, k);
    const rateOut = runRateDay(input.runRateOut, k);
    totals.planned_in_minor += day.plannedIn;
    totals.planned_out_minor += day.plannedOut;
    totals.subscriptions_minor += day.subscriptions;
    totals.ad_budgets_minor += day.adBudgets;
    totals.committed_in_minor += committedIn;
    totals.committed_out_minor += committedOut;
    totals.run_rate_in_minor += rateIn;
    totals.run_rate_out_minor += rateOut;
    runRateNet += rateIn - rateOut;
    if (committedLine !== null) {
      committedLine += committedIn - committedOut;
      if (lowest === null || committedLine < lowest.amount_minor) lowest = { date, amount_minor: committedLine };
    }
    days.push({
      date,
      committed_in_minor: committedIn,
      committed_out_minor: committedOut,
      run_rate_in_minor: rateIn,
      run_rate_out_minor: rateOut,
      balance_committed_minor: committedLine,
      balance_with_run_rate_minor: committedLine === null ? null : committedLine + runRateNet,
    });
  }
  const last = days[days.length - 1]!;
  return {
    opening,
    days,
    totals,
    ending_balance_committed_minor: last.balance_committed_minor,
    ending_balance_with_run_rate_minor: last.balance_with_run_rate_minor,
    lowest_balance: lowest,
  };
}

// --- K5: the series in a display currency (pinned-wave3 §1.4) ------------------------------

/**
 * The totals' derived sums (§2.5; pinned-wave3 §1.3), in any currency: committed in = planned in;
 * committed out = planned out + subscriptions + ad budgets.
 */
export function committedTotals(parts: TForecastSeries["totals"]): { committed_in_minor: bigint; committed_out_minor: bigint } {
  return {
    committed_in_minor: parts.planned_in_minor,
    committed_out_minor: parts.planned_out_minor + parts.subscriptions_minor + parts.ad_budgets_minor,
  };
}

/**
 * The amounts a series shows, each named by where it sits ("opening:committed_in_minor",
 * "totals:run_rate_in_minor", "days:3:balance_committed_minor"): the components that
 * showSeries converts once.
 */
export function seriesComponents(series: TForecastSeries): Record<string, bigint> {
  const components: Record<string, bigint> = {};
  for (const [key, value] of Object.entries(series.opening)) components[`opening:${key}`] = value;
  for (const [key, value] of Object.entries(series.totals)) components[`totals:${key}`] = value;
  series.days.forEach((day, i) => {
    for (const [key, value] of Object.entries(day)) if (typeof value === "bigint") components[`days:${i}:${key}`] = value;
  });
  return components;
}

/**
 * A series as shown in another currency, given `shown(name)`, each of seriesComponents converted
 * once from the base, and the cash and reserved converted likewise:
 * - the opening figures and the window's totals are their own conversions, not sums of converted
 *   days; each day is converted on its own, so in a display currency the days need not add up
 *   to the totals (in the base they do);
 * - the derived figures are recomputed from the converted components, so the top-level
 *   identities hold in any currency: committed in and out = their parts; the ending balances =
 *   cash − reserved + the opening and the window's nets;
 * - lowest_balance is the lowest day (found in the base) with its own converted balance.
 * In the base currency (`shown` the identity) it is the series itself.
 */
export function showSeries(
  series: TForecastSeries,
  shown: (name: string) => bigint,
  cashMinor: bigint | null,
  reservedMinor: bigint,
): TForecastSeries {
  const each = <T extends Record<string, bigint>>(values: T, prefix: string): T =>
    Object.fromEntries(Object.keys(values).map((key) => [key, shown(`${prefix}:${key}`)])) as T;
  const opening = each(series.opening, "opening");
  const parts = each(series.totals, "totals");
  const totals = { ...parts, ...committedTotals(parts) };
  const days = series.days.map(
    (day, i) =>
      Object.fromEntries(
        Object.entries(day).map(([key, value]) => [key, typeof value === "bigint" ? shown(`days:${i}:${key}`) : value]),
      ) as TForecastDay,
  );
  const ending =
    cashMinor === null
      ? null
      : cashMinor -
        reservedMinor +
        opening.committed_in_minor -
        opening.committed_out_minor +
        totals.committed_in_minor -
        totals.committed_out_minor;
  const runRateNet =
    opening.run_rate_in_minor - opening.run_rate_out_minor + totals.run_rate_in_minor - totals.run_rate_out_minor;
  const lowest = series.lowest_balance && days.find((day) => day.date === series.lowest_balance!.date);
  return {
    opening,
    days,
    totals,
    ending_balance_committed_minor: ending,
    ending_balance_with_run_rate_minor: ending === null ? null : ending + runRateNet,
    lowest_balance: lowest ? { date: lowest.date, amount_minor: lowest.balance_committed_minor! } : null,
  };
}
