// Credential lifetimes (the contract leaves them open; the OpenAPI description states them).
export const LOGIN_TOKEN_TTL_MS = 15 * 60 * 1000; // a magic link works for 15 minutes, once
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000; // an owner session lasts 30 days
export const AGENT_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000; // an agent token, unless set otherwise
export const SESSION_TOUCH_MS = 60 * 1000; // last_seen_at is refreshed at most once a minute

/**
 * The latest expiry an agent token may be given: one calendar year after `now` (UTC; from
 * 29 February, 1 March). A longer-lived bearer is one nobody remembers to rotate.
 */
export function latestAgentTokenExpiry(now: Date): Date {
  const latest = new Date(now.getTime());
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest;
}
