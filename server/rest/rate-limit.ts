// Requests per token per minute (Limits: Request rate), in fixed one-minute windows counted in
// the database so every app instance shares them.
//
// Counting every request with a database write would double the cost of a simple read, so an
// instance leases a few permits at a time: one atomic statement adds the lease to the shared
// count, and the instance spends the permits it was granted in memory. The sum of all leases
// never passes the limit, so no combination of instances can exceed it. A lease is at most 1/40
// of the limit (one permit for limits under 80, i.e. exact counting), so an instance that stops
// holds back at most that much until the window ends. X-RateLimit-Remaining is the permits this
// instance holds plus those nobody has leased yet.
import type { TDb, TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";

const WINDOW_MS = 60_000;
const MAX_LEASE = 50;

export type TRateLimitState = { limit: number; remaining: number; resetAt: number; exceeded: boolean };

type TLease = {
  windowStart: number;
  /** Permits granted to this instance and not used yet. */
  left: number;
  /** The shared count after this instance's last lease (every instance's leases so far). */
  leasedGlobally: number;
  /** Nothing more can be granted in this window. */
  exhausted: boolean;
  claiming?: Promise<void>;
};

/** Leases per database (tests run several databases in one process), then per token key. */
const leasesByDb = new WeakMap<object, Map<string, TLease>>();

export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / 40)));
}

async function claim(db: TDbOrTx, key: string, limit: number, lease: TLease): Promise<void> {
  const size = leaseSize(limit);
  const windowStart = new Date(lease.windowStart);
  // One atomic statement: concurrent claims (from any instance) never lose a count.
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, ${size})
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + EXCLUDED.count
    RETURNING count`;
  const after = Number(rows[0]?.count ?? size);
  const granted = Math.max(0, Math.min(size, limit - (after - size)));
  lease.left += granted;
  lease.leasedGlobally = Math.min(after, limit);
  lease.exhausted = granted < size;
}

function stateOf(lease: TLease, limit: number, exceeded: boolean): TRateLimitState {
  return {
    limit,
    remaining: exceeded ? 0 : lease.left + Math.max(0, limit - lease.leasedGlobally),
    resetAt: Math.ceil((lease.windowStart + WINDOW_MS) / 1000),
    exceeded,
  };
}

export async function consumeRateLimit(db: TDb, key: string, limit: number, now = new Date()): Promise<TRateLimitState> {
  const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  let leases = leasesByDb.get(db);
  if (!leases) leasesByDb.set(db, (leases = new Map()));
  for (;;) {
    let lease = leases.get(key);
    if (!lease || lease.windowStart !== windowStart) {
      if (leases.size > 10_000) forgetOldWindows(leases, windowStart);
      lease = { windowStart, left: 0, leasedGlobally: 0, exhausted: false };
      leases.set(key, lease);
    }
    if (lease.left > 0) {
      lease.left -= 1;
      return stateOf(lease, limit, false);
    }
    if (lease.exhausted) return stateOf(lease, limit, true);
    // One claim at a time per token: concurrent requests wait for it, then spend its permits.
    if (!lease.claiming) {
      const current = lease;
      current.claiming = claim(db, key, limit, current).finally(() => {
        current.claiming = undefined;
      });
    }
    await lease.claiming;
  }
}

/**
 * The refusal a key has already met in this window on this instance, without spending a
 * permit (and without a database round trip): the per-IP door refuses every bearer from an
 * address whose failures used up its budget, so that a 429 for a wrong guess and a 200 for
 * the right one cannot be told apart.
 */
export function knownExceeded(db: TDb, key: string, limit: number, now = new Date()): TRateLimitState | undefined {
  const lease = leasesByDb.get(db)?.get(key);
  if (!lease || lease.windowStart !== Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS) return undefined;
  return lease.exhausted && lease.left === 0 ? stateOf(lease, limit, true) : undefined;
}

function forgetOldWindows(leases: Map<string, TLease>, windowStart: number): void {
  for (const [key, lease] of leases) if (lease.windowStart !== windowStart) leases.delete(key);
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
  const { count } = await db.rateLimitBucket.deleteMany({
    where: { windowStart: { lt: new Date(now.getTime() - 2 * WINDOW_MS) } },
  });
  return count;
}
