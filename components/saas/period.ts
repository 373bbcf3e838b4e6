// The SaaS tab's period (`?period=30d|90d|12m`, or `?from=&to=` for a range of one's own): the
// presets as from/to days of the owner's today. The API checks the range (at most 366 days).
import { addDays, dayParts, formatDay, isCalendarDay } from "../../lib/days";

export const SAAS_PERIODS = [
  { id: "30d", label: "Last 30 days", short: "30 days" },
  { id: "90d", label: "Last 90 days", short: "90 days" },
  { id: "12m", label: "Last 12 months", short: "12 months" },
] as const;
export type TSaasPeriodId = (typeof SAAS_PERIODS)[number]["id"];

export type TSaasPeriod =
  { kind: "preset"; id: TSaasPeriodId; from: string; to: string } | { kind: "custom"; from?: string; to?: string };

const first = (raw: string | string[] | undefined) => (Array.isArray(raw) ? raw[0] : raw)?.trim();

/** A preset's days: 30 or 90 days to today, or the 12 calendar months to today (this one so far). */
export function presetRange(id: TSaasPeriodId, today: string): { from: string; to: string } {
  if (id === "30d") return { from: addDays(today, -29), to: today };
  if (id === "90d") return { from: addDays(today, -89), to: today };
  const [year, month] = dayParts(today);
  const index = year * 12 + (month - 1) - 11;
  return { from: formatDay(Math.floor(index / 12), (index % 12) + 1, 1), to: today };
}

/** The page's period from its query: from/to when either is a day, else the preset (default 30 days). */
export function parseSaasPeriod(params: Record<string, string | string[] | undefined>, today: string): TSaasPeriod {
  const from = first(params.from);
  const to = first(params.to);
  const fromDay = from && isCalendarDay(from) ? from : undefined;
  const toDay = to && isCalendarDay(to) ? to : undefined;
  if (fromDay || toDay) return { kind: "custom", from: fromDay, to: toDay };
  const asked = first(params.period);
  const id = SAAS_PERIODS.find((p) => p.id === asked)?.id ?? "30d";
  return { kind: "preset", id, ...presetRange(id, today) };
}

/** The query parameters that keep a period in links and forms. */
export function periodQuery(period: TSaasPeriod): Record<string, string> {
  if (period.kind === "preset") return period.id === "30d" ? {} : { period: period.id };
  return { ...(period.from ? { from: period.from } : {}), ...(period.to ? { to: period.to } : {}) };
}
