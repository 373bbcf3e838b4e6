// Replay memory of the webhook receivers. The contract's generic and relay signatures (and
// social_ads') cover the body alone, so a captured delivery can be sent again later with a
// fresh timestamp and would revert a restatement made since (inv-77: 100, then 120, then the
// first delivery again → 100). Every accepted delivery is therefore remembered per integration
// by the SHA-256 of the HMAC its signature matched with that integration's secret, inside the delivery's own transaction (a
// failed delivery is not remembered), and the same signed request again is a replay: answered
// 200 with every item counted as deduped, nothing written.
import { createHash } from "node:crypto";
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { baseCurrencyLock } from "../fx/rebase-owner";

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
 * What one delivery is remembered as: each integration it writes to, with the digest of the
 * HMAC that verified it for that integration (connections of one account may hold different
 * secrets, so the same request verifies with a different HMAC for each).
 */
export type TRememberedDelivery = ReadonlyArray<{ integrationId: string; digest: string }>;

/** Sorted by integration, so two deliveries naming the same integrations take the keys in the same order. */
function keyOrder(delivery: TRememberedDelivery): Array<{ integrationId: string; digest: string }> {
  const byId = new Map(delivery.map((entry) => [entry.integrationId, entry]));
  return [...byId.values()].sort((a, b) => (a.integrationId < b.integrationId ? -1 : 1));
}

/** The INSERT that remembers a delivery, as a CTE `remembered` with a row per integration that had not accepted it. */
function rememberedCte(entries: Array<{ integrationId: string; digest: string }>, now: Date): Prisma.Sql {
  const ids = entries.map((entry) => entry.integrationId);
  const digests = entries.map((entry) => entry.digest);
  return Prisma.sql`WITH remembered AS (
    INSERT INTO webhook_deliveries (integration_id, signature_digest, received_at)
    SELECT id, digest, ${now} FROM unnest(${ids}::uuid[], ${digests}::text[]) AS k(id, digest)
    ON CONFLICT DO NOTHING RETURNING 1)`;
}

/**
 * Remembers the delivery for each integration it writes to, in `tx`. True when it is new for
 * every one of them; false when any of them already accepted it (a replay: write nothing).
 * A concurrent identical delivery waits on the primary key until this transaction ends, then
 * sees the row (a replay) or, if this one rolled back, goes ahead.
 */
export async function rememberDelivery(tx: TTx, delivery: TRememberedDelivery, now: Date): Promise<boolean> {
  const entries = keyOrder(delivery);
  if (entries.length === 0) return true;
  const rows = await tx.$queryRaw<Array<{ remembered: number }>>`
    ${rememberedCte(entries, now)} SELECT count(*)::int AS remembered FROM remembered`;
  return rows[0]!.remembered === entries.length;
}

/**
 * rememberDelivery, in one statement with the owner's base-currency lock (lockBaseCurrency)
 * that ingesting the delivery's events takes first anyway: one round trip fewer per delivery.
 * Answers whether the delivery is new and the owner's base currency (null: no such owner).
 */
export async function rememberDeliveryLockingOwner(
  tx: TTx,
  ownerId: string,
  delivery: TRememberedDelivery,
  now: Date,
): Promise<{ fresh: boolean; baseCurrency: string | null }> {
  const entries = keyOrder(delivery);
  const rows = await tx.$queryRaw<Array<{ remembered: number; base_currency: string | null }>>`
    ${rememberedCte(entries, now)}
    SELECT (SELECT count(*)::int FROM remembered) AS remembered, (${baseCurrencyLock(ownerId)}) AS base_currency`;
  return { fresh: rows[0]!.remembered === entries.length, baseCurrency: rows[0]!.base_currency };
}

/** Maintenance: forgets deliveries older than the retention. */
export async function sweepWebhookDeliveries(db: TDbOrTx, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_REPLAY_RETENTION_DAYS * 86_400_000);
  const { count } = await db.webhookDelivery.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  return count;
}
