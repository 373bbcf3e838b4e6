// The owner's today (pinned-wave2 §2.1 K1): the date in the owner's timezone (a zone the runtime
// does not know counts as UTC) at the request's clock. THE one helper every service asks; the
// pure rule under it is lib/days' todayIn. It lives in the foundation because writes (ledger,
// reservations) and reads (server/read-models) both need it and must not import each other.
import { timeZoneOrUtc, todayIn, todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { PREPARED } from "../db/prepared-statements";
import { AppError } from "../errors/app-error";

/** What a service knows of the owner's calendar and money at one instant. */
export type TOwnerDay = {
  ownerId: string;
  baseCurrency: string;
  /** The owner's timezone, or UTC when the stored one is unknown to the runtime. */
  timezone: string;
  /** The instant the request runs at (the injected clock's now). */
  now: Date;
  /** The owner's today, YYYY-MM-DD. */
  today: string;
  /** The day current rates are taken for: today's UTC rates (K1). */
  ratesOn: string;
};

/**
 * One query: the owner's base currency and timezone, with today at `now`. The first read of
 * nearly every request, before any other can start: a prepared statement (its planning cost
 * more than its primary-key probe).
 */
export async function loadOwnerDay(db: TDbOrTx, ownerId: string, now: Date = new Date()): Promise<TOwnerDay> {
  const [owner] = await db.$queryRaw<Array<{ base_currency: string; timezone: string }>>`${PREPARED}
    SELECT o.base_currency::text AS base_currency, o.timezone FROM owners o WHERE o.id = ${ownerId}::uuid`;
  if (!owner) throw new AppError("unauthenticated");
  const timezone = timeZoneOrUtc(owner.timezone);
  return { ownerId, baseCurrency: owner.base_currency, timezone, now, today: todayIn(timezone, now), ratesOn: todayUtc(now) };
}

/** The owner's today, YYYY-MM-DD. */
export async function ownerToday(db: TDbOrTx, ownerId: string, now: Date = new Date()): Promise<string> {
  return (await loadOwnerDay(db, ownerId, now)).today;
}
