// Which day the Daily brief page shows, and where its previous and next links go. Pure (no
// React): unit-tested in brief-days.test.ts. The API refuses a day after today (400); the page
// never asks for one, and says so when the address names one.
import { addDays, isCalendarDay } from "@/lib/days";

export type TBriefDay = {
  /** The day to show. */
  date: string;
  /** Why the asked day is not the one shown, or null. */
  notice: string | null;
};

/** `?date=` → the day to show: the asked one when it is a day that has begun, else today with a notice. */
export function briefDayOf(raw: string | string[] | undefined, today: string, timezone: string): TBriefDay {
  const asked = Array.isArray(raw) ? raw[0] : raw;
  if (asked === undefined || asked === "" || asked === today) return { date: today, notice: null };
  if (!isCalendarDay(asked)) return { date: today, notice: `"${asked}" is not a day (YYYY-MM-DD), so today's brief is shown.` };
  if (asked > today) return { date: today, notice: `${asked} has not begun yet in ${timezone}, so today's brief is shown.` };
  return { date: asked, notice: null };
}

export type TBriefNav = {
  /** The day before (always: a day before the owner's books shows that they had not started). */
  previous: string;
  /** The day after, or null at today (no brief of a day that has not begun). */
  next: string | null;
};

export function briefNav(date: string, today: string): TBriefNav {
  return { previous: addDays(date, -1), next: date < today ? addDays(date, 1) : null };
}

/** The page's address for a day: today's is the bare /brief. */
export function briefHref(date: string, today: string): string {
  return date === today ? "/brief" : `/brief?date=${date}`;
}
