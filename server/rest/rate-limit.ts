// Requests per token per minute (Limits: Request rate). Fixed one-minute windows counted in
// the database, so every app instance shares the same counters.
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";

const WINDOW_MS = 60_000;

export type TRateLimitState = { limit: number; remaining: number; resetAt: number; exceeded: boolean };

export async function consumeRateLimit(db: TDbOrTx, key: string, limit: number, now = new Date()): Promise<TRateLimitState> {
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  // One atomic statement: concurrent requests never lose a count.
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil((windowStart.getTime() + WINDOW_MS) / 1000),
    exceeded: count > limit,
  };
}

export function rateLimitHeaders(state: TRateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    // Unix time (seconds) when the current window ends.
    "X-RateLimit-Reset": String(state.resetAt),
  };
}

export function rateLimitedError(state: TRateLimitState, now = new Date()): AppError {
  const retryAfter = Math.max(1, state.resetAt - Math.floor(now.getTime() / 1000));
  return new AppError("rate_limited", `Rate limit of ${state.limit} requests per minute reached; retry in ${retryAfter} s.`, {
    headers: { "Retry-After": String(retryAfter) },
    details: { limit: state.limit, retry_after_seconds: retryAfter },
  });
}

/** Drops finished windows (run by the maintenance job). */
export async function sweepRateLimitBuckets(db: TDbOrTx, now = new Date()): Promise<number> {
  const { count } = await db.rateLimitBucket.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - 2 * WINDOW_MS) } } });
  return count;
}
