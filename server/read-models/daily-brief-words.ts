// The daily brief in words (pinned-wave2 §2.11), in the owner's locale: its headline, and the
// title of the daily_brief.ready notification. Pure; amounts are formatted exactly (lib/money).
//
//   "<date>: in <in>, out <out>, net <net>. Cash <cash | unknown>. Runway <N days | not burning | unknown>. <k> approval(s) waiting."
import { formatMinor } from "../../lib/money";
import type { TRunway } from "./read-model.schema";

export type THeadlineFigures = {
  date: string;
  locale: string;
  /** The currency of the amounts (the brief's data.currency). */
  currency: string;
  inMinor: number;
  outMinor: number;
  netMinor: number;
  /** null: no cash recorded by the end of the day. */
  cashMinor: number | null;
  runway: TRunway;
  pendingApprovals: number;
};

/** A calendar day (no zone of its own: read as UTC so it never shifts) in `locale`, else en-US. */
function formatDay(day: string, locale: string, options: Intl.DateTimeFormatOptions): string {
  const instant = new Date(`${day}T00:00:00Z`);
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(instant);
  } catch {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }).format(instant);
  }
}

function formatCount(count: number, locale: string): string {
  try {
    return new Intl.NumberFormat(locale).format(count);
  } catch {
    return new Intl.NumberFormat("en-US").format(count);
  }
}

function runwayWords(runway: TRunway, locale: string): string {
  if (runway.status === "not_burning") return "not burning";
  // finite with days null: beyond the exact integer range, no honest number to show.
  if (runway.status === "unknown" || runway.days === null) return "unknown";
  return `${formatCount(runway.days, locale)} ${runway.days === 1 ? "day" : "days"}`;
}

/** The brief's headline. */
export function briefHeadline(f: THeadlineFigures): string {
  const money = (minor: number) => formatMinor(minor, f.currency, f.locale);
  const approvals = `${formatCount(f.pendingApprovals, f.locale)} ${f.pendingApprovals === 1 ? "approval" : "approvals"} waiting.`;
  return (
    `${formatDay(f.date, f.locale, { dateStyle: "medium" })}: in ${money(f.inMinor)}, out ${money(f.outMinor)}, ` +
    `net ${money(f.netMinor)}. Cash ${f.cashMinor === null ? "unknown" : money(f.cashMinor)}. ` +
    `Runway ${runwayWords(f.runway, f.locale)}. ${approvals}`
  );
}

/** The daily_brief.ready notification's title: "Your brief for Tue, Nov 24" (en-US). */
export function briefTitle(date: string, locale: string): string {
  return `Your brief for ${formatDay(date, locale, { weekday: "short", day: "numeric", month: "short" })}`;
}
