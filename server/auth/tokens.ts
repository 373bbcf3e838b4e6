// Token helpers: secrets are compared by hash in constant time and never logged.
import { createHash, timingSafeEqual } from "node:crypto";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A stable, non-secret identifier of a token, for rate-limit counters and logs. */
export function tokenKey(token: string): string {
  return tokenKeyOfHash(sha256Hex(token));
}

/** tokenKey of a token whose sha256Hex is already known (one hash per request, not three). */
export function tokenKeyOfHash(hash: string): string {
  return `tok_${hash.slice(0, 32)}`;
}

/** Constant-time comparison of two tokens by their sha256Hex (hashing made the lengths equal). */
export function safeEqualHashes(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}
