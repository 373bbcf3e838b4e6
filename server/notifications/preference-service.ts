// The owner's notification preferences (pinned-wave2 §4.3): which channels receive, from which
// severity, and which codes create nothing. No row means the defaults; the first PATCH writes it.
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import type { NotificationPreference, NotificationWebhook } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { toWebhookSettings } from "./webhook-service";
import type { TNotificationPreferences, TSeverity, TUpdatePreferencesInput } from "./notification.schema";

/** The stored columns of a preference row that are not keys or times. */
type TPreferenceFields = Pick<
  NotificationPreference,
  "webhookEnabled" | "webhookMinSeverity" | "emailEnabled" | "emailMinSeverity" | "mutedCodes"
>;

export const DEFAULT_PREFERENCES: TPreferenceFields = {
  webhookEnabled: true,
  webhookMinSeverity: "info",
  emailEnabled: false,
  emailMinSeverity: "critical",
  mutedCodes: [],
};

function toPreferencesDto(fields: TPreferenceFields, webhook: NotificationWebhook | null): TNotificationPreferences {
  return {
    channels: {
      in_app: { enabled: true },
      webhook: { enabled: fields.webhookEnabled, min_severity: fields.webhookMinSeverity as TSeverity },
      email: { enabled: fields.emailEnabled, min_severity: fields.emailMinSeverity as TSeverity },
    },
    muted_codes: fields.mutedCodes,
    webhook: webhook ? toWebhookSettings(webhook) : null,
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function storedFields(db: TDbOrTx, ownerId: string): Promise<TPreferenceFields> {
  return (await db.notificationPreference.findUnique({ where: { ownerId } })) ?? DEFAULT_PREFERENCES;
}

function storedWebhook(db: TDbOrTx, ownerId: string): Promise<NotificationWebhook | null> {
  return db.notificationWebhook.findUnique({ where: { ownerId } });
}

/** GET /v1/me/notification-preferences. */
export async function getPreferences(db: TDbOrTx, ownerId: string): Promise<TNotificationPreferences> {
  const [fields, webhook] = await Promise.all([storedFields(db, ownerId), storedWebhook(db, ownerId)]);
  return toPreferencesDto(fields, webhook);
}

/**
 * PATCH /v1/me/notification-preferences: a deep merge into the current preferences (only the
 * fields sent change; muted_codes is replaced as a whole). Email needs SMTP_URL: turning it on
 * without one is 400 validation_error. Audited notification_preferences.updated.
 */
export async function updatePreferences(
  db: TDbOrTx,
  caller: TCaller,
  input: TUpdatePreferencesInput,
): Promise<TNotificationPreferences> {
  if (input.channels?.email?.enabled === true && !getEnv().SMTP_URL) {
    throw AppError.invalidField("channels.email.enabled", "email cannot be enabled: this server has no SMTP_URL configured");
  }
  // Only the fields sent are written, so the merge happens in the row itself: two concurrent
  // PATCHes of different fields both stay.
  const changed: Partial<TPreferenceFields> = {
    webhookEnabled: input.channels?.webhook?.enabled,
    webhookMinSeverity: input.channels?.webhook?.min_severity,
    emailEnabled: input.channels?.email?.enabled,
    emailMinSeverity: input.channels?.email?.min_severity,
    mutedCodes: input.muted_codes ? [...new Set(input.muted_codes)] : undefined,
  };
  return inTransaction(db, async (tx) => {
    const row = await tx.notificationPreference.upsert({
      where: { ownerId: caller.ownerId },
      create: { ownerId: caller.ownerId, ...DEFAULT_PREFERENCES, ...withoutUndefined(changed) },
      update: changed,
    });
    await auditCaller(
      tx,
      caller,
      "notification_preferences.updated",
      { type: "owner", id: caller.ownerId },
      {
        fields: [
          ...Object.keys(input.channels ?? {}).map((channel) => `channels.${channel}`),
          ...(input.muted_codes ? ["muted_codes"] : []),
        ],
      },
    );
    return toPreferencesDto(row, await storedWebhook(tx, caller.ownerId));
  });
}
