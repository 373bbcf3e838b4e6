// The owner's outbound notification webhook (pinned-wave2 §4.4): PUT /v1/me/notification-webhook
// sets, changes, turns off or removes it. The URL is checked here (and again before every attempt,
// delivery-service.ts): https, no credentials, and every address it resolves to public, unless its
// host is in OUTBOUND_ALLOW_HOSTS. The signing secret (whsec_…) is made when a webhook is first set
// (or set again after a removal) and on rotate_secret; it is answered only then (the route's
// response is stored encrypted by the idempotency layer) and kept encrypted at rest.
import { randomBytes } from "node:crypto";
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import { encryptSecret } from "../crypto/secret-box";
import type { TDbOrTx } from "../db/client";
import type { NotificationWebhook } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { dropPendingWebhookDeliveries } from "./delivery-service";
import type { TNotificationWebhookResult, TSetWebhookInput, TWebhookSettings } from "./notification.schema";
import { checkWebhookUrl, lookupWithin } from "./outbound/url-policy";

const PUT_DNS_TIMEOUT_MS = 3_000;

/** whsec_ and 32 random bytes in base64url. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

function secretHint(secret: string): string {
  return `${secret.slice(0, 10)}…`;
}

export function toWebhookSettings(row: NotificationWebhook): TWebhookSettings {
  return {
    url: row.url,
    enabled: row.enabled,
    secret_hint: row.secretHint,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The host of a URL for the audit log (never the path or query, which may carry tokens). */
function hostOf(url: string): string {
  return new URL(url).host;
}

/** PUT /v1/me/notification-webhook. */
export async function setNotificationWebhook(
  db: TDbOrTx,
  caller: TCaller,
  input: TSetWebhookInput,
): Promise<TNotificationWebhookResult> {
  const now = caller.now;
  if (input.url === null) {
    return inTransaction(db, async (tx) => {
      const removed = await tx.notificationWebhook.deleteMany({ where: { ownerId: caller.ownerId } });
      if (removed.count > 0) {
        await dropPendingWebhookDeliveries(tx, caller.ownerId, now);
        await auditCaller(
          tx,
          caller,
          "notification_webhook.updated",
          { type: "owner", id: caller.ownerId },
          { action: "removed" },
        );
      }
      return { enabled: false, updated_at: now.toISOString() };
    });
  }

  // The PUT runs in the request's (idempotency) transaction: a resolver that does not answer
  // within PUT_DNS_TIMEOUT_MS counts as `unresolvable` rather than holding the transaction open.
  const checked = await checkWebhookUrl(input.url, { lookup: lookupWithin(PUT_DNS_TIMEOUT_MS) });
  if (!checked.ok) {
    throw new AppError("webhook_url_invalid", `The webhook URL was refused (${checked.rule}).`, {
      details: { rule: checked.rule },
    });
  }
  const enabled = input.enabled ?? true;
  return inTransaction(db, async (tx) => {
    const current = await tx.notificationWebhook.findUnique({ where: { ownerId: caller.ownerId } });
    const secret = !current || input.rotate_secret ? newSecret() : null;
    const fields = {
      url: input.url!,
      enabled,
      ...(secret ? { secretEncrypted: await encryptSecret(secret), secretHint: secretHint(secret) } : {}),
    };
    const row = current
      ? await tx.notificationWebhook.update({ where: { ownerId: caller.ownerId }, data: fields })
      : await tx.notificationWebhook.create({
          data: { ownerId: caller.ownerId, ...fields, secretEncrypted: fields.secretEncrypted!, secretHint: fields.secretHint! },
        });
    if (!enabled) await dropPendingWebhookDeliveries(tx, caller.ownerId, now);
    await auditCaller(
      tx,
      caller,
      "notification_webhook.updated",
      { type: "owner", id: caller.ownerId },
      { action: current && secret ? "rotated" : "set", host: hostOf(row.url), enabled },
    );
    return { ...toWebhookSettings(row), ...(secret ? { secret } : {}) };
  });
}
