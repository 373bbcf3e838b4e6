// The secrets of owner sign-in. Both are 32 random bytes in base64url (256 bits): a login
// token travels in a mail link, a session token is the owner's bearer. The database keeps
// only their SHA-256 (server/auth/tokens.ts), so a leaked table signs nobody in.
import { randomBytes } from "node:crypto";
import { LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS } from "../auth/lifetimes";

export const SESSION_TOKEN_PREFIX = "ses_";

export function newLoginToken(): string {
  return randomBytes(32).toString("base64url");
}

export function newSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/**
 * Throttle: at most this many unused, unexpired login tokens per address. A request beyond it
 * still answers 202 (the answer never varies) but creates and sends nothing; the oldest
 * token expiring frees a slot.
 */
export const MAX_LIVE_LOGIN_TOKENS = 5;

/** The lifetimes in words, for the OpenAPI descriptions (the numbers: server/auth/lifetimes.ts). */
export const LOGIN_TOKEN_LIFETIME = `${LOGIN_TOKEN_TTL_MS / 60_000} minutes`;
export const SESSION_LIFETIME = `${SESSION_TTL_MS / (24 * 60 * 60 * 1000)} days`;
