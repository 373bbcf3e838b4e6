// The OAuth `state` of a connect: it is the only credential the provider's redirect carries
// back (the callback has no bearer), so it names the owner and the pending integration, expires
// after 10 minutes and is signed with a key derived from ENCRYPTION_KEY. It is also single-use:
// its nonce must equal the pending integration's config.oauth_nonce, which the callback clears.
//
//   state = base64url(JSON { owner, integration, nonce, exp }) "." base64url(HMAC-SHA256)
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { derivedKey } from "../crypto/secret-box";

export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
const PURPOSE = "oauth-state";
const MAX_STATE_LENGTH = 1024;

export type TOAuthState = { owner: string; integration: string; nonce: string; exp: number };

export function newOAuthNonce(): string {
  return randomBytes(18).toString("base64url");
}

async function mac(body: string): Promise<Buffer> {
  return createHmac("sha256", await derivedKey(PURPOSE))
    .update(body)
    .digest();
}

export async function signOAuthState(
  input: { owner: string; integration: string; nonce: string },
  now: Date = new Date(),
): Promise<string> {
  const payload: TOAuthState = { ...input, exp: Math.floor(now.getTime() / 1000) + OAUTH_STATE_TTL_SECONDS };
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${(await mac(body)).toString("base64url")}`;
}

/** The state's claims when its signature holds and it has not expired; null otherwise. */
export async function verifyOAuthState(state: string | null, now: Date = new Date()): Promise<TOAuthState | null> {
  if (!state || state.length > MAX_STATE_LENGTH) return null;
  const dot = state.indexOf(".");
  if (dot <= 0 || dot !== state.lastIndexOf(".")) return null;
  const body = state.slice(0, dot);
  const given = Buffer.from(state.slice(dot + 1), "base64url");
  const expected = await mac(body);
  // Constant time; a wrong length is refused before the comparison (timingSafeEqual throws on it).
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!isState(claims)) return null;
  if (claims.exp * 1000 <= now.getTime()) return null;
  return claims;
}

function isState(value: unknown): value is TOAuthState {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.owner === "string" &&
    typeof v.integration === "string" &&
    typeof v.nonce === "string" &&
    v.nonce.length > 0 &&
    typeof v.exp === "number" &&
    Number.isFinite(v.exp)
  );
}

/** Constant-time equality of two strings (the nonce against the stored one). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}
