// Signature of the owner's notification webhook (pinned-wave2.md §4.4). The timestamp is signed
// with the body (`<timestamp>.<raw body>`), so a captured delivery cannot be replayed later with a
// fresh timestamp; receivers refuse ones over 5 minutes old. Signed again per attempt, because each
// attempt carries its own timestamp. (node:crypto directly: server/webhooks' helpers sit above
// notifications in the folder order.)
import { createHmac, timingSafeEqual } from "node:crypto";

export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

function digest(secret: string, timestampSeconds: number, rawBody: string): Buffer {
  return createHmac("sha256", secret).update(`${timestampSeconds}.`, "utf8").update(rawBody, "utf8").digest();
}

/** X-Service-Signature's value: `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`. */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string): string {
  return `sha256=${digest(secret, timestampSeconds, rawBody).toString("hex")}`;
}

/**
 * What a receiver does (for receivers, tests and the docs): the header is the signature of this
 * timestamp and body, compared in constant time, and the timestamp lies within the tolerance of
 * now — in the past (a replay) or the future (a clock far off).
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  timestampSeconds: number,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds: number = WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!Number.isSafeInteger(timestampSeconds) || !Number.isFinite(nowSeconds)) return false;
  if (Math.abs(nowSeconds - timestampSeconds) > toleranceSeconds) return false;
  const hex = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim())?.[1];
  if (!hex) return false;
  return timingSafeEqual(digest(secret, timestampSeconds, rawBody), Buffer.from(hex, "hex"));
}
