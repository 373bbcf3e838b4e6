// Token helpers: secrets are compared by hash in constant time and never logged.
import { createHash, timingSafeEqual } from "node:crypto";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** A stable, non-secret identifier of a token, for rate-limit counters and logs. */
export function tokenKey(token: string): string {
  return `tok_${sha256Hex(token).slice(0, 32)}`;
}
