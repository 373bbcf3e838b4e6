// The calendar of commitments (pinned-wave2 §2.1 K7), pure: which days a subscription charges
// between today and the end of a window, where a planned event falls, and a project's share of
// an allocated subscription's charge. The SQL that feeds it and the currency conversion live in
// commitments.ts; this file only does days and minor units.
//
// - A charge rolls from `next_charge_on` (the anchor, never advanced in the database): a week
//   adds 7 days; a month, quarter or year adds 1, 3 or 12 months counted FROM THE ANCHOR, on the
//   anchor's day clamped to the month's end (31 Jan → 28/29 Feb → 31 Mar, not → 28 Mar).
// - No charge before today (a past anchor is rolled forward, not shown as overdue), and none on
//   a day a confirmed event of that subscription is dated (the first charge POST
//   /v1/recurring-expenses wrote as an event counts once, as that event).
// - A planned event before today is still owed: it is dated today and flagged `overdue`.
// - A campaign's daily budget (pinned-wave3 §1.3) is known on each day from the effective_on of
//   a planned or applied ad budget change on: on day d, the newest change (created last)
//   effective by d, so a newer change replaces an older one from its own effective_on.
import { addDays, addMonthsClamped, dayParts, daysBetween } from "../../lib/days";
import { distributeByBps, sortAllocations, type TAllocationShare } from "../subscriptions/allocation-math";

export const BILLING_INTERVALS = ["week", "month", "quarter", "year"] as const;
export type TBillingInterval = (typeof BILLING_INTERVALS)[number];

const MONTHS: Record<Exclude<TBillingInterval, "week">, number> = { month: 1, quarter: 3, year: 12 };

/** The n-th charge (n = 0: the anchor itself) of a subscription anchored on `anchor`. */
export function nthCharge(anchor: string, interval: TBillingInterval, n: number): string {
  if (interval === "week") return addDays(anchor, 7 * n);
  return addMonthsClamped(anchor, MONTHS[interval] * n, dayParts(anchor)[2]);
}

/**
 * The charge days of one subscription within [today, end] (both inclusive), ascending, without
 * the days in `skip` (days a confirmed event of this subscription is dated).
 */
export function chargeDates(input: {
  nextChargeOn: string;
  interval: TBillingInterval;
  today: string;
  end: string;
  skip?: ReadonlySet<string>;
}): string[] {
  const { nextChargeOn: anchor, interval, today, end } = input;
  if (end < today) return [];
  // The first n whose charge can be on or after today; stepping from an estimate one period
  // early keeps the loop short for an anchor years in the past.
  let n = 0;
  if (anchor < today) {
    if (interval === "week") n = Math.floor(daysBetween(anchor, today) / 7);
    else {
      const [ay, am] = dayParts(anchor);
      const [ty, tm] = dayParts(today);
      n = Math.max(0, Math.floor((ty * 12 + tm - (ay * 12 + am)) / MONTHS[interval]) - 1);
    }
  }
  const dates: string[] = [];
  for (let date = nthCharge(anchor, interval, n); date <= end; date = nthCharge(anchor, interval, ++n)) {
    if (date < today || input.skip?.has(date)) continue;
    dates.push(date);
  }
  return dates;
}

/** Where a planned event falls in the projection: its own day, or today (overdue) when it is past. */
export function plannedDay(occurredOn: string, today: string): { date: string; overdue: boolean } {
  return occurredOn < today ? { date: today, overdue: true } : { date: occurredOn, overdue: false };
}

/**
 * A project's part of one charge of an allocated subscription: the largest-remainder split of
 * the amount (in its original currency) over every allocation, in the order the subscription's
 * DTO lists them, so the part equals that DTO's allocation amount. Null when the project has no
 * allocation of it.
 */
export function projectPart(
  amountMinor: bigint,
  allocations: readonly TAllocationShare[],
  projectId: string,
): { amountMinor: bigint; shareBps: number } | null {
  const sorted = sortAllocations(allocations);
  const index = sorted.findIndex((allocation) => allocation.projectId === projectId);
  if (index < 0) return null;
  const parts = distributeByBps(
    amountMinor,
    sorted.map((allocation) => allocation.shareBps),
  );
  return { amountMinor: parts[index]!, shareBps: sorted[index]!.shareBps };
}

/** A planned or applied ad budget change, as the calendar needs it. */
export type TBudgetChangeDay<TChange> = { date: string; change: TChange };

/**
 * Each day of [today, end] on which the campaign of `changes` (all of one campaign, planned or
 * applied) has a known daily budget, with the change in effect that day: the newest one
 * (`createdAt`, then `id`) whose effective_on is on or before the day.
 */
export function campaignBudgetDays<TChange extends { id: string; effectiveOn: string; createdAt: Date }>(
  changes: readonly TChange[],
  today: string,
  end: string,
): TBudgetChangeDay<TChange>[] {
  const newestFirst = [...changes].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  const days: TBudgetChangeDay<TChange>[] = [];
  for (let date = today; date <= end; date = addDays(date, 1)) {
    const change = newestFirst.find((c) => c.effectiveOn <= date);
    if (change) days.push({ date, change });
  }
  return days;
}
