// Credential lifetimes (the contract leaves them open; the OpenAPI description states them).
export const LOGIN_TOKEN_TTL_MS = 15 * 60 * 1000; // a magic link works for 15 minutes, once
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000; // an owner session lasts 30 days
export const AGENT_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000; // an agent token, unless set otherwise
export const SESSION_TOUCH_MS = 60 * 1000; // last_seen_at is refreshed at most once a minute
