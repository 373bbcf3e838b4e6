// Per-IP limits on the public door (DESIGN.md, "Per-IP limits on public routes"), counted by the
// same database-backed limiter as the per-token rate (rate-limit.ts), keyed by client IP
// (client-ip.ts; an unknown address is one shared key, never a free pass):
//   login   10 a minute: POST /v1/auth/magic-link, the panel's email sign-in (its server
//           action and Auth.js's POST /api/auth/signin/*), on top of the per-email throttle.
//   waitlist 5 a minute and 20 a day: POST /v1/waitlist (pinned-wave2.md §1.6), counted exactly
//           in fixed UTC-minute and UTC-day windows; a refused call counts in neither.
//   public  60 a minute: every other call without a bearer (POST /v1/auth/verify, the public
//           catalog, the OAuth callback, Auth.js's other endpoints, the panel's token form),
//           and every bearer the REST layer refuses with 401 (token guessing).
// Not counted: signed webhooks (providers deliver in bursts from few addresses, and an
// HMAC-SHA256 secret is not guessable) and GET /v1/openapi.json (a static document that opens
// no database and proves nothing).
import type { TActor } from "../auth/actor";
import type { TDb } from "../db/client";
import { AppError } from "../errors/app-error";
import type { TAccessRule } from "../trpc/meta";
import {
  consumeRateLimit,
  consumeWindows,
  knownExceeded,
  rateLimitedError,
  rateLimitHeaders,
  type TRateLimitState,
  type TRateWindow,
} from "./rate-limit";

export const IP_LIMITS = { login: 10, public: 60 } as const;
export type TIpBudget = keyof typeof IP_LIMITS;

/** POST /v1/waitlist's per-IP windows (contract Limits: 5 per minute and 20 per day per IP). */
export const WAITLIST_IP_WINDOWS: readonly TRateWindow[] = [
  { name: "minute", ms: 60_000, limit: 5 },
  { name: "day", ms: 86_400_000, limit: 20 },
];

/** Spends one waitlist call of an address, in both windows or (refused) in neither. */
export function consumeWaitlistIpLimit(db: TDb, ip: string | null, now = new Date()): Promise<TRateLimitState> {
  return consumeWindows(db, `ip:waitlist:${ip ?? "unknown"}`, WAITLIST_IP_WINDOWS, now);
}

export function ipLimitKey(budget: TIpBudget, ip: string | null): string {
  return `ip:${budget}:${ip ?? "unknown"}`;
}

/** Spends one call of an address's budget. */
export function consumeIpLimit(db: TDb, budget: TIpBudget, ip: string | null, now = new Date()): Promise<TRateLimitState> {
  return consumeRateLimit(db, ipLimitKey(budget, ip), IP_LIMITS[budget], now);
}

/** The budget a call without a bearer spends on a route, if any. */
function budgetOf(access: TAccessRule): TIpBudget | "waitlist" | null {
  if (access.kind !== "public") return null; // signature: the signature is the credential; others need a bearer
  if (access.ipLimit === "none") return null;
  return access.ipLimit ?? "public";
}

/**
 * The REST layer's authentication step behind the per-IP door. Without a bearer, a public
 * route spends its budget first. With one, a 401 spends the address's public budget, and once
 * that is used up no bearer from the address is checked at all until the window ends.
 * X-RateLimit-* headers of the IP's budget go into `headers`; 429 `rate_limited` past it.
 */
export async function authenticateAtTheDoor(
  call: {
    db: () => Promise<TDb>;
    access: TAccessRule;
    ip: string | null;
    hasBearer: boolean;
    headers: Record<string, string>;
    now?: Date;
  },
  authenticate: () => Promise<TActor>,
): Promise<TActor> {
  const now = call.now ?? new Date();
  const refuse = (state: TRateLimitState): AppError => {
    Object.assign(call.headers, rateLimitHeaders(state));
    return rateLimitedError(state, now);
  };
  if (call.access.kind === "signature") return authenticate();
  if (!call.hasBearer) {
    const budget = budgetOf(call.access);
    if (budget) {
      const db = await call.db();
      const state =
        budget === "waitlist" ? await consumeWaitlistIpLimit(db, call.ip, now) : await consumeIpLimit(db, budget, call.ip, now);
      if (state.exceeded) throw refuse(state);
      Object.assign(call.headers, rateLimitHeaders(state));
    }
    return authenticate();
  }
  const db = await call.db();
  const key = ipLimitKey("public", call.ip);
  const spent = knownExceeded(db, key, IP_LIMITS.public, now);
  if (spent) throw refuse(spent);
  try {
    return await authenticate();
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 401) throw error;
    const state = await consumeRateLimit(db, key, IP_LIMITS.public, now);
    if (state.exceeded) throw refuse(state);
    throw error;
  }
}
