// K1 (pinned-wave2 §2.1): the owner's today and a read model's period.
//   - today: the date in the owner's timezone (invalid → UTC) at the request's clock; current
//     rates are today's UTC rates (TOwnerDay.ratesOn). One helper: server/shared/owner-today.ts.
//   - from, to: inclusive days on occurred_on. Default [today − 29, today]; only from → to =
//     today; only to → from = to − 29; from > to, or more than 366 days, → 400 naming the field.
//   - Timestamps count by their owner-timezone date (ownerDaySql, dayEndExclusive).
import { addDays, daysBetween, zoneDayStart } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import type { TClock } from "../shared/clock";
import { loadOwnerDay, ownerToday, type TOwnerDay } from "../shared/owner-today";
import { resolveBusinessScope, type TReadScope } from "./scope";

export { loadOwnerDay, ownerToday, type TOwnerDay };

/** The default period's length in days (today and the 29 before it). */
export const DEFAULT_PERIOD_DAYS = 30;
/** The longest period a read model answers, in days (a leap year). */
export const MAX_PERIOD_DAYS = 366;

export type TPeriod = {
  from: string;
  to: string;
  /** Days in the period, both ends included. */
  days: number;
};

/** The owner's day at the request's clock (the entry point of every read model). */
export function readOwnerDay(db: TDbOrTx, ownerId: string, clock: TClock): Promise<TOwnerDay> {
  return loadOwnerDay(db, ownerId, clock.now());
}

/**
 * The owner's day and the business of the path, looked up together: two independent reads, one
 * wait. `checkDay` (the period's check) still decides first, so a bad period is 400 whatever the
 * business, and only then is an unknown or another owner's business 404 — as when they ran in turn.
 */
export async function readOwnerDayAndBusiness<T>(
  db: TDbOrTx,
  ownerId: string,
  clock: TClock,
  businessId: string,
  checkDay: (day: TOwnerDay) => T,
): Promise<{ day: TOwnerDay; checked: T; scope: TReadScope & { kind: "business" } }> {
  const scopeLookup = resolveBusinessScope(db, ownerId, businessId);
  // Awaited below; until then a 404 must not surface as an unhandled rejection.
  scopeLookup.catch(() => {});
  const day = await readOwnerDay(db, ownerId, clock);
  const checked = checkDay(day);
  return { day, checked, scope: await scopeLookup };
}

/** from/to of a query, defaults filled in; 400 validation_error naming `from` (or `to`) otherwise. */
export function resolvePeriod(input: { from?: string; to?: string }, today: string): TPeriod {
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  // Only a given from can be after to (a derived from is to − 29).
  if (from > to) throw AppError.invalidField("from", `must not be after to (${to})`);
  const days = daysBetween(from, to) + 1;
  if (days > MAX_PERIOD_DAYS) {
    throw AppError.invalidField("from", `the period from ${from} to ${to} is ${days} days; at most ${MAX_PERIOD_DAYS}`);
  }
  return { from, to, days };
}

/** The first instant after day `day` in the owner's timezone: "at the end of D" is `< dayEndExclusive(D)`. */
export function dayEndExclusive(timezone: string, day: string): Date {
  return zoneDayStart(timezone, addDays(day, 1));
}

/**
 * A timestamp column's date in the owner's timezone, in SQL (`created_at` → its owner day).
 * `timezone` must be TOwnerDay.timezone (already checked, or UTC); it is bound, not spliced.
 */
export function ownerDaySql(column: Prisma.Sql, timezone: string): Prisma.Sql {
  return Prisma.sql`(${column} AT TIME ZONE ${timezone})::date`;
}

/** A day as the DATE value SQL compares occurred_on with. */
export function daySql(day: string): Prisma.Sql {
  return Prisma.sql`${day}::date`;
}
