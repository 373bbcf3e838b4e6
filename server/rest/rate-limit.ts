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

export type TRateLimitState = {
  limit: number;
  remaining: number;
  resetAt: number;
  exceeded: boolean;
  /** The window the limit counts in (messages); a minute unless said. */
  per?: string;
};

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
  return new AppError(
    "rate_limited",
    `Rate limit of ${state.limit} requests per ${state.per ?? "minute"} reached; retry in ${retryAfter} s.`,
    {
      headers: { "Retry-After": String(retryAfter) },
      details: { limit: state.limit, retry_after_seconds: retryAfter },
    },
  );
}

/** A fixed window of an exactly counted limit (consumeWindows). */
export type TRateWindow = { name: string; ms: number; limit: number };

/** Keys of windows longer than a minute start with this, so the sweep keeps them until they end. */
const LONG_WINDOW_PREFIX = "long:";
const LONGEST_WINDOW_MS = 86_400_000;

function windowKey(key: string, window: TRateWindow): string {
  return window.ms > WINDOW_MS ? `${LONG_WINDOW_PREFIX}${key}:${window.name}` : `${key}:${window.name}`;
}

/**
 * Exact counting over several fixed windows at once (small public limits, where a lease would
 * be the whole limit): the call takes one permit in every window, or, when any window is full,
 * none at all (the permits it took are given back), so a refused call never counts. The state
 * is the window with fewer permits left; refused, the full window ending last (Retry-After).
 */
export async function consumeWindows(
  db: TDb,
  key: string,
  windows: readonly TRateWindow[],
  now = new Date(),
): Promise<TRateLimitState> {
  const taken: { key: string; start: Date }[] = [];
  const states: TRateLimitState[] = [];
  for (const window of windows) {
    const start = new Date(Math.floor(now.getTime() / window.ms) * window.ms);
    const resetAt = Math.ceil((start.getTime() + window.ms) / 1000);
    const bucket = windowKey(key, window);
    // Adds one only while under the limit: no row back means the window is full.
    const rows = await db.$queryRaw<{ count: number }[]>`
      INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${bucket}, ${start}, 1)
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
      WHERE rate_limit_buckets.count < ${window.limit}
      RETURNING count`;
    const count = rows[0] === undefined ? null : Number(rows[0].count);
    if (count === null) {
      states.push({ limit: window.limit, remaining: 0, resetAt, exceeded: true, per: window.name });
      continue;
    }
    taken.push({ key: bucket, start });
    states.push({
      limit: window.limit,
      remaining: Math.max(0, window.limit - count),
      resetAt,
      exceeded: false,
      per: window.name,
    });
  }
  const refused = states.filter((state) => state.exceeded);
  if (refused.length > 0) {
    for (const permit of taken) {
      await db.$executeRaw`
        UPDATE rate_limit_buckets SET count = count - 1 WHERE key = ${permit.key} AND window_start = ${permit.start}`;
    }
    return refused.reduce((latest, state) => (state.resetAt > latest.resetAt ? state : latest));
  }
  return states.reduce((fewest, state) => (state.remaining < fewest.remaining ? state : fewest));
}

/** Drops finished windows (run by the maintenance job); long windows are kept until they end. */
export async function sweepRateLimitBuckets(db: TDbOrTx, now = new Date()): Promise<number> {
  const { count } = await db.rateLimitBucket.deleteMany({
    where: {
      OR: [
        { windowStart: { lt: new Date(now.getTime() - 2 * WINDOW_MS) }, NOT: { key: { startsWith: LONG_WINDOW_PREFIX } } },
        { windowStart: { lt: new Date(now.getTime() - 2 * LONGEST_WINDOW_MS) } },
      ],
    },
  });
  return count;
}
