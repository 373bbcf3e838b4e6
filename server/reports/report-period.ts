// A report's range and its periods (pinned-wave3 §4). Pure.
//   - from, to: inclusive days on occurred_on. Default: the last 12 whole months and the current
//     one ([first of today's month − 12 months, today]); only from → to = today; only to → from =
//     the first of to's month − 12 months. from after to, or a range longer than 36 months
//     (to on or after from + 36 months), → 400 naming from.
//   - Periods: the calendar months, quarters or years the range touches, each cut to the range
//     (the first and the last may be partial), oldest first.
import { addDays, addMonthsClamped, dayParts, daysInMonth, formatDay } from "../../lib/days";
import { AppError } from "../errors/app-error";

export const REPORT_INTERVALS = ["month", "quarter", "year"] as const;
export type TReportInterval = (typeof REPORT_INTERVALS)[number];

/** The longest range, in calendar months. */
export const MAX_REPORT_MONTHS = 36;
/** The default range: this many whole months before the current one, and the current one. */
export const DEFAULT_REPORT_MONTHS = 12;

export type TReportRange = { from: string; to: string };
export type TReportPeriod = { start: string; end: string };

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;

/** from/to of a report's query, defaults filled in; 400 validation_error naming `from` otherwise. */
export function resolveReportRange(input: { from?: string; to?: string }, today: string): TReportRange {
  const to = input.to ?? today;
  const from = input.from ?? addMonthsClamped(firstOfMonth(to), -DEFAULT_REPORT_MONTHS);
  if (from > to) throw AppError.invalidField("from", `must not be after to (${to})`);
  if (to >= addMonthsClamped(from, MAX_REPORT_MONTHS)) {
    throw AppError.invalidField("from", `the range from ${from} to ${to} is longer than ${MAX_REPORT_MONTHS} months`);
  }
  return { from, to };
}

/** The first day of the interval that holds `day`. */
export function intervalStart(day: string, interval: TReportInterval): string {
  const [year, month] = dayParts(day);
  if (interval === "month") return formatDay(year, month, 1);
  if (interval === "quarter") return formatDay(year, month - ((month - 1) % 3), 1);
  return formatDay(year, 1, 1);
}

/** The last day of the interval that starts on `start`. */
function intervalEnd(start: string, interval: TReportInterval): string {
  const months = interval === "month" ? 1 : interval === "quarter" ? 3 : 12;
  const [year, month] = dayParts(addMonthsClamped(start, months - 1));
  return formatDay(year, month, daysInMonth(year, month));
}

/** The periods of the range, each cut to it, oldest first. */
export function reportPeriods(range: TReportRange, interval: TReportInterval): TReportPeriod[] {
  const periods: TReportPeriod[] = [];
  let start = intervalStart(range.from, interval);
  while (start <= range.to) {
    const end = intervalEnd(start, interval);
    periods.push({ start: start < range.from ? range.from : start, end: end > range.to ? range.to : end });
    start = addDays(end, 1);
  }
  return periods;
}
