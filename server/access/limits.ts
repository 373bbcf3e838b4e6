// Daily and monthly spend limits of a grant, counted atomically in the database. One
// statement per period adds the amount only if the total stays within the limit; PostgreSQL's
// row lock on the counter makes concurrent writes queue, so no two can both pass the limit.
import type { TGrant } from "../auth/grants";
import { periodStarts } from "../auth/limit-periods";
import type { TTx } from "../db/client";

export class LimitExceededError extends Error {
  constructor(
    readonly period: "day" | "month",
    readonly limitMinor: bigint,
  ) {
    super(`The grant's ${period === "day" ? "daily" : "monthly"} limit of ${limitMinor} is reached.`);
  }
}

async function add(
  tx: TTx,
  grantId: string,
  period: "day" | "month",
  start: Date,
  amount: bigint,
  limit: bigint,
): Promise<boolean> {
  // Every parameter is typed: two untyped parameters compared with each other are compared as
  // text ("10000000" <= "9000"), so the amounts are bigint on both sides of every comparison.
  const rows = await tx.$queryRaw<{ used_minor: bigint }[]>`
    INSERT INTO agent_limit_usage (grant_id, period, period_start, used_minor)
    SELECT ${grantId}::uuid, ${period}::text, ${start}::date, ${amount}::bigint WHERE ${amount}::bigint <= ${limit}::bigint
    ON CONFLICT (grant_id, period, period_start)
    DO UPDATE SET used_minor = agent_limit_usage.used_minor + EXCLUDED.used_minor
    WHERE agent_limit_usage.used_minor + EXCLUDED.used_minor <= ${limit}::bigint
    RETURNING used_minor`;
  return rows.length === 1;
}

/**
 * Counts `amountMinor` (in the grant's currency) against the grant's limits inside `tx`.
 * Throws LimitExceededError when a limit would be passed; the caller's transaction then rolls
 * back whatever was counted.
 */
export async function reserveWithinLimits(tx: TTx, grant: TGrant, amountMinor: bigint, now = new Date()): Promise<void> {
  const starts = periodStarts(now);
  // Day before month, always: every writer locks the counters in the same order.
  if (grant.dailyLimitMinor !== null && !(await add(tx, grant.id, "day", starts.day, amountMinor, grant.dailyLimitMinor))) {
    throw new LimitExceededError("day", grant.dailyLimitMinor);
  }
  if (
    grant.monthlyLimitMinor !== null &&
    !(await add(tx, grant.id, "month", starts.month, amountMinor, grant.monthlyLimitMinor))
  ) {
    throw new LimitExceededError("month", grant.monthlyLimitMinor);
  }
}

export function hasLimits(grant: TGrant): boolean {
  return grant.dailyLimitMinor !== null || grant.monthlyLimitMinor !== null;
}
