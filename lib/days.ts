// Calendar days: the one home of the day rules the server and the panel share. A day is the
// contract's "YYYY-MM-DD"; an instant is a Date. Days are counted in UTC (a DATE column is read
// and written as midnight UTC), except "today", which has three honest versions below: the
// server's (UTC), the owner's (their time zone) and the browser's (the panel's form defaults).
// Pure, no imports: safe in the client bundle.

const DAY_MS = 86_400_000;

/** The UTC calendar day an instant falls on (2026-11-22T23:30Z → "2026-11-22"); also the day a DATE column holds. */
export function utcDayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The UTC calendar day of a Unix time in seconds (how payment platforms send times). */
export function utcDayOfUnixSeconds(seconds: number): string {
  return utcDayOf(new Date(seconds * 1000));
}

/** The first instant of a day, midnight UTC ("2026-11-22" → 2026-11-22T00:00:00.000Z): what a DATE column stores. */
export function utcMidnightOf(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** Whether a string is a YYYY-MM-DD day that exists (not 2026-02-30). */
export function isCalendarDay(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && utcDayOf(utcMidnightOf(text)) === text
  );
}

/** Today as the server counts it: the UTC day of `now` (rate days, ingest bounds, sync windows). */
export function todayUtc(now = new Date()): string {
  return utcDayOf(now);
}

/** Whether the runtime knows an IANA time zone (Europe/Berlin yes, Mars/Olympus no). */
export function isTimeZone(value: string): boolean {
  return formatOf(DAY_PARTS, value) !== undefined;
}

// An Intl.DateTimeFormat costs far more to build than to use (a read model asks for a zone's
// day boundaries a dozen times per request), so each zone's formats are built once. Only zones
// the runtime accepts are kept, and the cache is bounded against a flood of spellings.
const DAY_PARTS: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit" };
const INSTANT_PARTS: Intl.DateTimeFormatOptions = {
  ...DAY_PARTS,
  hourCycle: "h23",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
};
const FORMATS_KEPT = 1_000;
const formats = new Map<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>([
  [DAY_PARTS, new Map()],
  [INSTANT_PARTS, new Map()],
]);

/** The en-US format of `parts` in `timeZone`, or undefined for a zone the runtime does not know. */
function formatOf(parts: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat | undefined {
  const byZone = formats.get(parts)!;
  let format = byZone.get(timeZone);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...parts, timeZone });
  } catch {
    return undefined;
  }
  if (byZone.size >= FORMATS_KEPT) byZone.clear();
  byZone.set(timeZone, format);
  return format;
}

/** The zone itself when the runtime knows it, else UTC: how an owner's stored timezone is read. */
export function timeZoneOrUtc(value: string | null | undefined): string {
  return value && isTimeZone(value) ? value : "UTC";
}

/**
 * Today in an IANA time zone, the owner's: what "already happened" means to them (a manual
 * event's date, a reservation's expiry). A zone the runtime does not know counts as UTC.
 * Server code reads the owner's today through server/shared/owner-today.ts (one query, the
 * request's clock); this is the rule under it.
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const format = formatOf(DAY_PARTS, timeZone);
  if (!format) return todayUtc(now);
  const parts = format.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The hour (0–23) a wall clock in a time zone shows at `now` (an unknown zone: UTC): 07:00 in Auckland is 7. */
export function hourIn(timeZone: string, now: Date = new Date()): number {
  const format = formatOf(INSTANT_PARTS, timeZone) ?? formatOf(INSTANT_PARTS, "UTC")!;
  return Number(format.formatToParts(now).find((p) => p.type === "hour")?.value ?? 0);
}

/** The zone's offset from UTC at `instant`, in ms (Berlin in winter: +3,600,000). */
function zoneOffsetMs(timeZone: string, instant: Date): number {
  const parts = (formatOf(INSTANT_PARTS, timeZone) ?? formatOf(INSTANT_PARTS, "UTC")!).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - (instant.getTime() - instant.getMilliseconds());
}

/**
 * The first instant of `day` in a time zone (an unknown zone: UTC): "2026-11-23" in
 * Europe/Berlin → 2026-11-22T23:00:00Z. A day that starts in a DST gap starts at its first
 * existing instant. The end of day D is the start of D + 1 (exclusive).
 */
export function zoneDayStart(timeZone: string, day: string): Date {
  const zone = timeZoneOrUtc(timeZone);
  const midnight = utcMidnightOf(day).getTime();
  // Two passes: the offset at the guess may differ from the offset at the answer (DST).
  let start = midnight - zoneOffsetMs(zone, new Date(midnight));
  start = midnight - zoneOffsetMs(zone, new Date(start));
  // In a gap the computed instant falls on the day before: move to the day's first hour.
  while (todayIn(zone, new Date(start)) < day) start += 3_600_000;
  while (todayIn(zone, new Date(start - 1)) >= day) start -= 3_600_000;
  return new Date(start);
}

/** Today in the runtime's own zone: in the panel, the browser's (the default date of a form). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `day` plus `days` calendar days (negative: before). */
export function addDays(day: string, days: number): string {
  return utcDayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** "YYYY-MM-DD" of a year, a month (1–12) and a day of the month. */
export function formatDay(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The year, month (1–12) and day of the month of a YYYY-MM-DD day. */
export function dayParts(day: string): [year: number, month: number, dayOfMonth: number] {
  return [Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))];
}

/** The number of days of a month (1–12) in the Gregorian calendar, for any year (no Date: years 0–99 too). */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * `day` plus `months` calendar months (negative: before), on `dayOfMonth` (default: the day's
 * own), clamped to the month's last day: 31 Jan + 1 month is 28 (or 29) Feb; 29 Feb + 12
 * months is 28 Feb; 28 Feb + 1 month on day 31 is 31 Mar.
 */
export function addMonthsClamped(day: string, months: number, dayOfMonth = dayParts(day)[2]): string {
  const [year, month] = dayParts(day);
  const index = year * 12 + (month - 1) + months;
  const toYear = Math.floor(index / 12);
  const toMonth = index - toYear * 12 + 1;
  return formatDay(toYear, toMonth, Math.min(dayOfMonth, daysInMonth(toYear, toMonth)));
}
