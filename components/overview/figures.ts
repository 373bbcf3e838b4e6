// The words and shapes the Overview shows for the read models' figures: runway, coverage, the
// date cash is as of, a calendar day, axis ticks, the forecast's chart points, the timeline's
// days. Formatting only: every amount and date comes from the API as it is; nothing here sums,
// converts or decides. No React: unit-tested in figures.test.ts.
import { isCurrencyCode } from "@/lib/currencies";
import { formatMinor, minorToMajor } from "@/lib/money";
import type { TCash, TCommitmentItem, TCoverageStatus, TRunway } from "@/server/read-models/read-model.schema";

// ---- shapes of the API's answers the Overview reads (pinned-wave2.md §1.4) ----

export type { TCash, TCommitmentItem, TCoverageStatus, TRunway };
export type TForecastDay = {
  date: string;
  balance_committed_minor: number | null;
  balance_with_run_rate_minor: number | null;
};

// ---- days ----

/** "2026-11-22" → "Nov 22, 2026" in the owner's locale. A calendar day has no zone: it is read as UTC, so it never shifts. */
export function formatCalendarDay(day: string, locale: string, style: "medium" | "short" = "medium"): string {
  const options: Intl.DateTimeFormatOptions =
    style === "medium" ? { dateStyle: "medium", timeZone: "UTC" } : { month: "short", day: "numeric", timeZone: "UTC" };
  const date = new Date(`${day}T00:00:00Z`);
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-US", options).format(date);
  }
}

// ---- runway and cash ----

export type TRunwayWords = { headline: string; detail: string };

/** The runway as the API states it: days and the day cash runs out, not burning, or unknown (no cash recorded). */
export function runwayWords(runway: TRunway, locale: string): TRunwayWords {
  if (runway.status === "unknown") return { headline: "Unknown", detail: "Record a cash balance to see how long it lasts." };
  if (runway.status === "not_burning")
    return { headline: "Not burning", detail: "More came in than went out over the last 90 days." };
  const days = runway.days ?? 0;
  const headline = `${new Intl.NumberFormat(locale).format(days)} ${days === 1 ? "day" : "days"}`;
  return {
    headline,
    detail: runway.runs_out_on
      ? `At the last 90 days' net burn, cash runs out on ${formatCalendarDay(runway.runs_out_on, locale)}.`
      : "At the last 90 days' net burn.",
  };
}

/** When the cash figure was observed: the oldest balance it adds up (an instant, shown as the owner's day). */
export function cashAsOfWords(cash: TCash, formatInstant: (iso: string) => string): string {
  return cash === null ? "No cash balance recorded yet" : `As of ${formatInstant(cash.as_of)}`;
}

// ---- coverage ----

const COVERAGE: Record<TCoverageStatus, { label: string; tone: string; description: string }> = {
  accurate: { label: "Accurate", tone: "pill-success", description: "Fresh data from a connected source (under a day old)." },
  mostly_covered: { label: "Mostly covered", tone: "pill-accent", description: "Recent data, up to three days old." },
  incomplete: { label: "Incomplete", tone: "pill-warning", description: "Manual entries or data up to a week old." },
  missing: { label: "Missing", tone: "pill-danger", description: "No data, or nothing newer than a week." },
};

/** A coverage status in words (the pill's text, so the status never rests on colour alone), its tone and what it means. */
export function coverageWords(status: TCoverageStatus): { label: string; tone: string; description: string } {
  return COVERAGE[status];
}

// ---- display currency and horizon (query parameters) ----

/** `?display_currency=usd` → "USD"; anything that is not a known ISO 4217 code → null (the base currency is shown). */
export function parseDisplayCurrency(raw: string | string[] | undefined): string | null {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
  return value && isCurrencyCode(value) ? value : null;
}

export const FORECAST_HORIZONS = [7, 30, 90] as const;
export type TForecastHorizon = (typeof FORECAST_HORIZONS)[number];

/** `?horizon=90` → 90; anything but 7, 30 or 90 → 30, the API's default. */
export function parseHorizon(raw: string | string[] | undefined): TForecastHorizon {
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return (FORECAST_HORIZONS as readonly number[]).includes(value) ? (value as TForecastHorizon) : 30;
}

// ---- charts ----

/**
 * An axis tick: the amount in major units, compact ("€12K", "-$1.2M"). Ticks only: the exact
 * figures are beside every chart, in its table.
 */
export function formatAxisMinor(minor: number, currency: string, locale: string): string {
  const major = minorToMajor(Math.trunc(minor), currency);
  const options: Intl.NumberFormatOptions = {
    style: "currency",
    currency,
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  };
  try {
    return new Intl.NumberFormat(locale, options).format(major as unknown as number);
  } catch {
    return new Intl.NumberFormat("en-US", options).format(major as unknown as number);
  }
}

export type TForecastPoint = { date: string; committed: number | null; runRate: number | null };

/** The forecast's days as chart points: the two balance lines, null (no cash recorded) left as a gap. */
export function forecastPoints(days: readonly TForecastDay[]): TForecastPoint[] {
  return days.map((day) => ({
    date: day.date,
    committed: day.balance_committed_minor,
    runRate: day.balance_with_run_rate_minor,
  }));
}

/** Whether a forecast has any balance to draw (none without a recorded cash balance). */
export function hasBalances(points: readonly TForecastPoint[]): boolean {
  return points.some((point) => point.committed !== null || point.runRate !== null);
}

/** Whether an in/out chart would draw nothing (no row moved any money): an empty state says what to do instead. */
export function nothingMoved(rows: readonly { in_minor: number; out_minor: number }[]): boolean {
  return rows.every((row) => row.in_minor === 0 && row.out_minor === 0);
}

// ---- the timeline of committed costs ----

export type TTimelineDay<TItem> = { date: string; overdue: boolean; items: TItem[] };

/**
 * The commitments grouped by their date, in the API's order (date ascending); overdue items
 * (dated today by the API) form their own group ahead of the day's other items.
 */
export function timelineDays<TItem extends { date: string; overdue: boolean }>(items: readonly TItem[]): TTimelineDay<TItem>[] {
  const days = new Map<string, TTimelineDay<TItem>>();
  for (const item of items) {
    const key = `${item.date}|${item.overdue}`;
    const day = days.get(key);
    if (day) day.items.push(item);
    else days.set(key, { date: item.date, overdue: item.overdue, items: [item] });
  }
  return [...days.values()].sort((a, b) =>
    a.date === b.date ? Number(b.overdue) - Number(a.overdue) : a.date < b.date ? -1 : 1,
  );
}

/** The line under the committed costs: the API lists items in the base currency and totals in the display one. */
export function commitmentsCurrencies(baseCurrency: string, displayCurrency: string): string {
  return baseCurrency === displayCurrency
    ? `Planned expenses, subscription charges and ad budgets, in ${baseCurrency}.`
    : `Planned expenses, subscription charges and ad budgets, in ${baseCurrency}; the total in ${displayCurrency}.`;
}

/**
 * What a commitment is, under its name: a planned expense, a subscription charge, or (a campaign's
 * ad budget, named "Ad budget <campaign>") its daily budget in its currency and the days it
 * covers ("$250.00 a day, May 10 – Jun 6").
 */
export function commitmentKindWords(item: TCommitmentItem, locale: string): string {
  if (item.kind === "planned") return "Planned expense";
  if (item.kind === "subscription") return "Subscription charge";
  const daily = item.daily_budget_minor === undefined ? null : formatMinor(item.daily_budget_minor, item.currency, locale);
  const days =
    item.from && item.to
      ? item.from === item.to
        ? formatCalendarDay(item.from, locale, "short")
        : `${formatCalendarDay(item.from, locale, "short")} – ${formatCalendarDay(item.to, locale, "short")}`
      : null;
  return [daily ? `${daily} a day` : "Ad budget", days].filter(Boolean).join(", ");
}

/** "Share 40.00 %" for a project's share of a subscription (basis points), else null. */
export function shareWords(shareBps: number | null | undefined): string | null {
  if (shareBps === null || shareBps === undefined) return null;
  return `${Math.trunc(shareBps / 100)}.${String(shareBps % 100).padStart(2, "0")} % share`;
}
