// The pure arithmetic of SaaS metrics (pinned-wave2 §2.7): the months of a period and the
// movement sums. The per-subscription MRR is computed in SQL (saas-metrics.ts).
import { addDays, daysInMonth, dayParts, formatDay } from "../../lib/days";
import type { TMovementKind } from "./saas-metrics.schema";

export type TMonthSpan = { month: string; from: string; to: string };

/** The calendar months of [from, to], each clipped to the period, oldest first. */
export function monthsOf(from: string, to: string): TMonthSpan[] {
  const months: TMonthSpan[] = [];
  let start = from;
  while (start <= to) {
    const [year, month] = dayParts(start);
    const monthEnd = formatDay(year, month, daysInMonth(year, month));
    const end = monthEnd < to ? monthEnd : to;
    months.push({ month: start.slice(0, 7), from: start, to: end });
    start = addDays(end, 1);
  }
  return months;
}

/** Σ deltas per movement kind (signed, as stored). */
export type TDeltaSums = Record<TMovementKind, bigint>;

export const NO_DELTAS: TDeltaSums = { new: 0n, expansion: 0n, reactivation: 0n, contraction: 0n, churned: 0n };

const abs = (n: bigint) => (n < 0n ? -n : n);

/** The movements as answered: new, expansion, reactivation = Σ deltas; contraction, churned = |Σ deltas|. */
export function movementAmounts(sums: TDeltaSums): TDeltaSums {
  return { ...sums, contraction: abs(sums.contraction), churned: abs(sums.churned) };
}

/** new + expansion + reactivation − contraction − churned, of movement amounts. */
export function netNew(amounts: TDeltaSums): bigint {
  return amounts.new + amounts.expansion + amounts.reactivation - amounts.contraction - amounts.churned;
}
