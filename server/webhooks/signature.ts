// Signature checks shared by every webhook receiver: HMAC-SHA256 digests (hex or base64),
// constant-time comparison, and the timestamp window. Pure functions; `now` is injectable.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** Contract, Limits: relay and generic webhooks accept timestamps within 5 minutes of now, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const SHA256_BYTES = 32;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;
const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=$/;

/** HMAC-SHA256 of the parts, concatenated, with `secret` (UTF-8 string or bytes). */
export function hmacSha256(secret: string | Buffer, ...parts: Array<string | Buffer>): Buffer {
  const hmac = createHmac("sha256", secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

export function hmacHex(secret: string | Buffer, ...parts: Array<string | Buffer>): string {
  return hmacSha256(secret, ...parts).toString("hex");
}

export function hmacBase64(secret: string | Buffer, ...parts: Array<string | Buffer>): string {
  return hmacSha256(secret, ...parts).toString("base64");
}

/** Constant-time equality of two digests; different lengths are simply unequal. */
export function digestsEqual(expected: Buffer, received: Buffer): boolean {
  if (expected.length !== received.length) return false;
  return timingSafeEqual(expected, received);
}

/** Whether `received` (64 hex digits, any case) is the expected SHA-256 digest. */
export function hexDigestMatches(expected: Buffer, received: string | null | undefined): boolean {
  if (!received || !HEX_DIGEST.test(received)) return false;
  return digestsEqual(expected, Buffer.from(received, "hex"));
}

/** Whether `received` (standard base64 of 32 bytes) is the expected SHA-256 digest. */
export function base64DigestMatches(expected: Buffer, received: string | null | undefined): boolean {
  if (!received || !BASE64_DIGEST.test(received)) return false;
  const bytes = Buffer.from(received, "base64");
  return bytes.length === SHA256_BYTES && digestsEqual(expected, bytes);
}

/**
 * Constant-time equality of two secrets of any length (a verify token): both are hashed first,
 * so the comparison runs on equal-length digests and leaks neither content nor length.
 */
export function secretsEqual(expected: string, received: string): boolean {
  const a = createHash("sha256").update(expected, "utf8").digest();
  const b = createHash("sha256").update(received, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** `sha256=<hex>` (X-Service-Signature, X-Hub-Signature-256) → the hex part, or null. */
export function sha256HeaderValue(header: string | null | undefined): string | null {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? "");
  return match ? match[1]! : null;
}

/** Unix seconds as sent in a header: digits only (no sign, fraction or exponent), else null. */
export function parseUnixSeconds(text: string | null | undefined): number | null {
  const value = text?.trim() ?? "";
  if (!/^\d{1,12}$/.test(value)) return null;
  return Number(value);
}

/** Whether a Unix-seconds timestamp lies within the tolerance of `now`, in the past or the future. */
export function isWithinTolerance(
  timestampSeconds: number | null,
  now: Date = new Date(),
  toleranceSeconds: number = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  if (timestampSeconds === null || !Number.isSafeInteger(timestampSeconds)) return false;
  return Math.abs(Math.floor(now.getTime() / 1000) - timestampSeconds) <= toleranceSeconds;
}

/**
 * A `k=v` list such as `t=1700000000,v1=ab…,v1=cd…` (separator `,`) or `ts=…;h1=…` (`;`).
 * Keys may repeat (several signatures during a secret rotation); malformed parts are skipped.
 */
export function parseKeyValueList(header: string | null | undefined, separator: string): Array<[string, string]> {
  if (!header) return [];
  const pairs: Array<[string, string]> = [];
  for (const part of header.split(separator)) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    pairs.push([part.slice(0, at).trim(), part.slice(at + 1).trim()]);
  }
  return pairs;
}
