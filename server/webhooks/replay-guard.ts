// Replay memory of the webhook receivers. The contract's generic and relay signatures (and
// social_ads') cover the body alone, so a captured delivery can be sent again later with a
// fresh timestamp and would revert a restatement made since (inv-77: 100, then 120, then the
// first delivery again → 100). Every accepted delivery is therefore remembered per integration
// by the SHA-256 of the HMAC its signature matched, inside the delivery's own transaction (a
// failed delivery is not remembered), and the same signed request again is a replay: answered
// 200 with every item counted as deduped, nothing written.
import { createHash } from "node:crypto";
import type { TDbOrTx, TTx } from "../db/client";

/** How long an accepted delivery is remembered (at least the 30 days issue #11 asks for). */
export const WEBHOOK_REPLAY_RETENTION_DAYS = 30;

/**
 * The delivery's identity: the SHA-256 (hex) of the HMAC the signature was verified against,
 * computed by the server. Not the header's text: hex case, spacing or an extra rotated
 * signature would make the same signed request look new.
 */
export function deliveryDigest(verifiedHmac: Buffer): string {
  return createHash("sha256").update(verifiedHmac).digest("hex");
}

/**
 * Remembers the delivery for each integration it writes to, in `tx`. True when it is new for
 * every one of them; false when any of them already accepted it (a replay: write nothing).
 * A concurrent identical delivery waits on the primary key until this transaction ends, then
 * sees the row (a replay) or, if this one rolled back, goes ahead.
 */
export async function rememberDelivery(tx: TTx, integrationIds: readonly string[], digest: string, now: Date): Promise<boolean> {
  // Sorted, so two deliveries naming the same integrations take the keys in the same order.
  const ids = [...new Set(integrationIds)].sort();
  if (ids.length === 0) return true;
  const inserted = await tx.$executeRaw`
    INSERT INTO webhook_deliveries (integration_id, signature_digest, received_at)
    SELECT id, ${digest}, ${now} FROM unnest(${ids}::uuid[]) AS k(id)
    ON CONFLICT DO NOTHING`;
  return inserted === ids.length;
}

/** Maintenance: forgets deliveries older than the retention. */
export async function sweepWebhookDeliveries(db: TDbOrTx, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_REPLAY_RETENTION_DAYS * 86_400_000);
  const { count } = await db.webhookDelivery.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  return count;
}
