// Delivering notifications to the outside channels (pinned-wave2 §4.3–4.4): the drain of the
// notification_deliveries outbox, run by the `notification-delivery` job (jobs/notification-
// delivery.ts), in process in every instance on either engine.
//
// One run: claim the due deliveries in small batches (FOR UPDATE SKIP LOCKED plus a short lease
// the run renews while it attempts them), attempt each OUTSIDE any transaction (a receiver may
// take 10 s; no connection is held meanwhile), then record the attempt in one short transaction:
// appended to the notification's `delivered`, and the delivery's next attempt scheduled (1 m,
// 5 m, 30 m, 2 h, 6 h, 12 h after each failure) or ended.
// The delivery row is the record (pinned-wave3 §1.7): every instance runs this job, and the claims
// keep them apart. A live run renews its claims, so a slow attempt is never taken over; a dead
// instance's claims lapse within CLAIM_LEASE_MS and the next run of any instance takes them. Only
// the claim that holds a delivery records its attempt (claim_id), so a run that stalled past its
// lease and lost the delivery records nothing: one attempt per row, whatever the runs. (A webhook
// sent by an instance that died before recording it is sent again, with the same event id.)
// The clock is the run's `now`, so tests replay the retry schedule without waiting.
import { randomUUID } from "node:crypto";
import { getEnv } from "../env";
import type { TDbOrTx } from "../db/client";
import { decryptSecret } from "../crypto/secret-box";
import { inTransaction } from "../db/transaction";
import { errorFields, log } from "../log";
import { sendMail } from "../mail/mailer";
import { sendWebhook } from "./outbound/webhook-sender";

/** The waits after the 1st … 6th failed attempt; a 7th failure ends the delivery as failed. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * How long a claim holds unless renewed: a dead instance's deliveries wait this long at most before
 * another run may take them. The run renews its claims every third of it while it attempts them.
 */
export const CLAIM_LEASE_MS = 30_000;
const BATCH = 20;
const PARALLEL = 5;

export type TDeliveryRunOptions = {
  /** Stop claiming new batches after this long (the job's next run continues). */
  budgetMs?: number;
  /** Per webhook attempt (pinned 10 s; tests shorten it). */
  timeoutMs?: number;
  /** The clock of a batch after the first (default: `now` plus the time elapsed). */
  clock?: () => Date;
  /** How long a claim holds unless renewed (default CLAIM_LEASE_MS; tests shorten it). */
  claimLeaseMs?: number;
};

export type TDeliveryRunResult = {
  attempted: number;
  delivered: number;
  failed: number;
  dropped: number;
  /** Attempts not recorded: the run had lost the claim (stalled past its lease), another run took it over. */
  lost: number;
};

type TClaimed = {
  id: string;
  notification_id: string;
  owner_id: string;
  channel: "webhook" | "email";
  payload: string | null;
  attempts: number;
};

type TAttempt =
  | { kind: "attempt"; status: "delivered" | "failed"; error?: string }
  /** The channel was removed or turned off since: no attempt, nothing more to do. */
  | { kind: "dropped" };

const CLAIM = `
UPDATE notification_deliveries d
   SET claimed_until = $2::timestamptz, claim_id = $3::uuid
 WHERE d.id IN (SELECT id
                  FROM notification_deliveries
                 WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz
                   AND (claimed_until IS NULL OR claimed_until <= $1::timestamptz)
                 ORDER BY next_attempt_at
                 LIMIT ${BATCH}
                   FOR UPDATE SKIP LOCKED)
RETURNING d.id::text, d.notification_id::text, d.owner_id::text, d.channel, d.payload, d.attempts`;

/** Delivers every due delivery (within the budget); answers what it did. */
export async function deliverDueNotifications(
  db: TDbOrTx,
  now: Date,
  options: TDeliveryRunOptions = {},
): Promise<TDeliveryRunResult> {
  const started = Date.now();
  const clock = options.clock ?? (() => new Date(now.getTime() + (Date.now() - started)));
  const result: TDeliveryRunResult = { attempted: 0, delivered: 0, failed: 0, dropped: 0, lost: 0 };
  const leaseMs = options.claimLeaseMs ?? CLAIM_LEASE_MS;
  let at = now;
  for (;;) {
    const claimId = randomUUID();
    const claimed = await db.$queryRawUnsafe<TClaimed[]>(
      CLAIM,
      at.toISOString(),
      new Date(at.getTime() + leaseMs).toISOString(),
      claimId,
    );
    if (claimed.length === 0) break;
    const renewal = keepClaim(db, claimId, () => new Date(clock().getTime() + leaseMs), leaseMs / 3);
    try {
      for (let i = 0; i < claimed.length; i += PARALLEL) {
        await Promise.all(
          claimed.slice(i, i + PARALLEL).map(async (delivery) => {
            const outcome = await attempt(db, delivery, at, options).catch((error: unknown): TAttempt => {
              // A bug or an outage of our own (the database, the key): counted as a failed attempt, retried.
              log.error("notification delivery failed unexpectedly", { delivery_id: delivery.id, ...errorFields(error) });
              return { kind: "attempt", status: "failed", error: "internal_error" };
            });
            if (!(await record(db, delivery, claimId, outcome, clock()))) {
              log.warn("notification delivery claim lost: another run took it over", { delivery_id: delivery.id });
              result.lost++;
            } else if (outcome.kind === "dropped") result.dropped++;
            else {
              result.attempted++;
              result[outcome.status]++;
            }
          }),
        );
      }
    } finally {
      await renewal.stop();
    }
    if (claimed.length < BATCH || Date.now() - started > (options.budgetMs ?? 50_000)) break;
    at = clock();
  }
  return result;
}

async function attempt(db: TDbOrTx, delivery: TClaimed, now: Date, options: TDeliveryRunOptions): Promise<TAttempt> {
  if (delivery.channel === "webhook") {
    const [preferences, webhook] = await Promise.all([
      db.notificationPreference.findUnique({ where: { ownerId: delivery.owner_id }, select: { webhookEnabled: true } }),
      db.notificationWebhook.findUnique({ where: { ownerId: delivery.owner_id } }),
    ]);
    if (!webhook || !webhook.enabled || preferences?.webhookEnabled === false || delivery.payload === null) {
      return { kind: "dropped" };
    }
    const outcome = await sendWebhook({
      url: webhook.url,
      secret: await decryptSecret(webhook.secretEncrypted),
      body: delivery.payload,
      eventId: delivery.id,
      now,
      timeoutMs: options.timeoutMs,
    });
    return outcome.status === "delivered"
      ? { kind: "attempt", status: "delivered" }
      : { kind: "attempt", status: "failed", error: outcome.error };
  }

  const [preferences, notification] = await Promise.all([
    db.notificationPreference.findUnique({ where: { ownerId: delivery.owner_id }, select: { emailEnabled: true } }),
    db.notification.findUnique({
      where: { id: delivery.notification_id },
      select: { title: true, body: true, owner: { select: { email: true } } },
    }),
  ]);
  if (!notification || !preferences?.emailEnabled) return { kind: "dropped" };
  if (!getEnv().SMTP_URL) return { kind: "attempt", status: "failed", error: "smtp_not_configured" };
  try {
    await sendMail({
      to: notification.owner.email,
      subject: notification.title,
      text: `${notification.body}\n\nAll notifications: ${getEnv().publicBaseUrl}/notifications\n`,
    });
    return { kind: "attempt", status: "delivered" };
  } catch (error) {
    log.warn("notification email failed", { delivery_id: delivery.id, ...errorFields(error) });
    return { kind: "attempt", status: "failed", error: "smtp_failed" };
  }
}

/**
 * Renews the claim every `everyMs` (to `until()`) until stopped, so a live run keeps its
 * deliveries however long an attempt takes (an SMTP server may be slow); one renewal at a time.
 */
function keepClaim(db: TDbOrTx, claimId: string, until: () => Date, everyMs: number): { stop: () => Promise<void> } {
  let renewing: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    renewing ??= db
      .$executeRawUnsafe(
        `UPDATE notification_deliveries SET claimed_until = $2::timestamptz WHERE claim_id = $1::uuid AND status = 'pending'`,
        claimId,
        until().toISOString(),
      )
      .catch((error: unknown) => log.warn("notification delivery claim renewal failed", errorFields(error)))
      .finally(() => {
        renewing = null;
      });
  }, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await renewing;
    },
  };
}

/**
 * Keeps an attempt: appended to the notification's `delivered` list, and the delivery moved on
 * (delivered; retried later; failed for good after the last retry). A delivery dropped while its
 * attempt was in flight (the webhook removed meanwhile) stays dropped, the attempt still listed.
 * Only while `claimId` still holds the delivery: false (nothing written) when another run took it over.
 */
async function record(db: TDbOrTx, delivery: TClaimed, claimId: string, outcome: TAttempt, at: Date): Promise<boolean> {
  if (outcome.kind === "dropped") {
    // Still ours: pending, or dropped meanwhile (dropping leaves the claim); a claimed row leaves
    // `pending` only through its claim's record.
    const held = await db.$executeRawUnsafe(
      `UPDATE notification_deliveries SET status = 'dropped', claimed_until = NULL, claim_id = NULL, updated_at = $3::timestamptz
        WHERE id = $1::uuid AND claim_id = $2::uuid`,
      delivery.id,
      claimId,
      at.toISOString(),
    );
    return held > 0;
  }
  const attemptNumber = delivery.attempts + 1;
  const status = outcome.status === "delivered" ? "delivered" : attemptNumber >= MAX_ATTEMPTS ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date(at.getTime() + RETRY_DELAYS_MS[attemptNumber - 1]!) : at;
  const entry = {
    channel: delivery.channel,
    at: at.toISOString(),
    status: outcome.status,
    ...(outcome.error ? { error: outcome.error } : {}),
    attempt: attemptNumber,
  };
  return inTransaction(db, async (tx) => {
    const held = await tx.$executeRawUnsafe(
      `UPDATE notification_deliveries
          SET status = CASE WHEN status = 'dropped' THEN 'dropped' ELSE $3 END,
              attempts = $4, next_attempt_at = $5::timestamptz, claimed_until = NULL, claim_id = NULL,
              updated_at = $6::timestamptz
        WHERE id = $1::uuid AND claim_id = $2::uuid`,
      delivery.id,
      claimId,
      status,
      attemptNumber,
      nextAttemptAt.toISOString(),
      at.toISOString(),
    );
    if (held === 0) return false;
    await tx.$executeRawUnsafe(
      `UPDATE notifications SET delivered = delivered || jsonb_build_array($2::jsonb) WHERE id = $1::uuid`,
      delivery.notification_id,
      JSON.stringify(entry),
    );
    return true;
  });
}

/** Ends the owner's queued webhook attempts (the webhook removed or turned off), in `db`'s transaction. */
export async function dropPendingWebhookDeliveries(db: TDbOrTx, ownerId: string, now: Date): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE notification_deliveries SET status = 'dropped', updated_at = $2::timestamptz
      WHERE owner_id = $1::uuid AND channel = 'webhook' AND status = 'pending'`,
    ownerId,
    now.toISOString(),
  );
}
