// Notifications and the owner's notification preferences (contract: Notification; pinned-wave2
// §4.1–4.3). Severity values are ordered: info < warning < critical.
import { z } from "zod";
import { ZPageQuery } from "../shared/pagination";
import { ZDate, ZQueryBoolean, ZTimestamp, ZUuid } from "../shared/schemas";

export const SEVERITIES = ["info", "warning", "critical"] as const;
export type TSeverity = (typeof SEVERITIES)[number];
export const ZSeverity = z.enum(SEVERITIES);

/** info 0 < warning 1 < critical 2. */
export function severityRank(severity: string): number {
  return SEVERITIES.indexOf(severity as TSeverity);
}

export const DELIVERY_CHANNELS = ["in_app", "webhook", "email"] as const;

export const TITLE_MAX = 120;
export const BODY_MAX = 1000;
export const MUTED_CODES_MAX = 100;

export const ZDeliveryAttempt = z
  .object({
    channel: z.enum(DELIVERY_CHANNELS).describe("New values may be added (additive change)."),
    at: ZTimestamp,
    status: z.enum(["delivered", "failed"]),
    error: z
      .string()
      .optional()
      .describe(
        "Why a failed attempt failed: http_<status>, redirect_refused, timeout, address_refused, dns_failed, connection_failed or tls_failed.",
      ),
    attempt: z.number().int().optional().describe("1 for the first attempt of a channel, then 2, 3, … (webhook and email)."),
  })
  .meta({ id: "NotificationDeliveryAttempt" });

export const ZNotification = z
  .object({
    id: ZUuid,
    code: z
      .string()
      .describe(
        "What happened: an alert's code (integration.<signal code>), approval.pending, import.rows_rejected, " +
          "agent.token_expiring, plan.trial_ending, plan.expired. New codes may be added (additive change).",
      ),
    severity: ZSeverity,
    title: z.string().describe(`At most ${TITLE_MAX} characters.`),
    body: z.string().describe(`At most ${BODY_MAX} characters.`),
    ref: z
      .object({ type: z.string(), id: z.string() })
      .nullable()
      .describe("The record it is about: { type: alert | approval | import | agent, id }, or null."),
    read_at: ZTimestamp.nullable().describe("When the owner marked it read; null while unread."),
    delivered: z
      .array(ZDeliveryAttempt)
      .describe("Every delivery attempt, oldest first; the in_app delivery is recorded when the notification is created."),
    created_at: ZTimestamp,
  })
  .meta({ id: "Notification" });
export type TNotification = z.infer<typeof ZNotification>;

const ZDayOrInstant = z.union([ZDate, ZTimestamp]);

export const ZFindNotificationsQuery = ZPageQuery.extend({
  unread: ZQueryBoolean.optional().describe("true: only unread ones; false: only read ones."),
  severity: ZSeverity.optional().describe("Only this severity."),
  code: z.string().max(128).optional().describe("Exact code, or a prefix ending in * (e.g. integration.*)."),
  from: ZDayOrInstant.optional().describe("Created from this day (UTC) or instant, inclusive."),
  to: ZDayOrInstant.optional().describe("Created up to this day (UTC, inclusive) or instant (exclusive)."),
});
export type TFindNotificationsQuery = z.infer<typeof ZFindNotificationsQuery>;

export const ZUpdateNotificationInput = z
  .object({
    read: z.boolean().describe("true marks it read (read_at = now, kept when already read); false marks it unread."),
  })
  .meta({ id: "UpdateNotificationInput" });

export const ZReadAllInput = z
  .object({
    before: ZTimestamp.optional().describe("Marks the unread ones created at or before this instant; default now."),
  })
  .meta({ id: "ReadAllNotificationsInput" });

// --- preferences ---

export const ZNotificationPreferences = z
  .object({
    channels: z.object({
      in_app: z.object({ enabled: z.literal(true).describe("Always true: in-app notifications cannot be turned off.") }),
      webhook: z.object({
        enabled: z.boolean(),
        min_severity: ZSeverity.describe("The webhook receives notifications of this severity or higher."),
      }),
      email: z.object({
        enabled: z.boolean(),
        min_severity: ZSeverity.describe("Email receives notifications of this severity or higher."),
      }),
    }),
    muted_codes: z
      .array(z.string())
      .describe("Codes for which no notification is created at all: exact codes, or prefixes ending in * (integration.*)."),
    webhook: z
      .object({
        url: z.string(),
        enabled: z.boolean(),
        secret_hint: z.string().nullable(),
        created_at: ZTimestamp,
        updated_at: ZTimestamp,
      })
      .nullable()
      .describe("The outbound webhook (read-only here; set with PUT /v1/me/notification-webhook); null when none is set."),
  })
  .meta({ id: "NotificationPreferences" });
export type TNotificationPreferences = z.infer<typeof ZNotificationPreferences>;

const ZMutedCode = z
  .string()
  .trim()
  .min(1, { message: "must not be empty" })
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+\*?$/, {
    message: "must be a code (letters, digits, . _ : -) or a prefix ending in *",
  });

// Strict objects: a misspelt key (`enabeld`) is a 400, not silently ignored.
const ZChannelPatch = z.strictObject({
  enabled: z.boolean().optional(),
  min_severity: ZSeverity.optional(),
});

export const ZUpdatePreferencesInput = z
  .strictObject({
    channels: z
      .strictObject({
        in_app: z
          .strictObject({
            enabled: z.literal(true, { message: "in_app notifications cannot be turned off" }).optional(),
          })
          .optional(),
        webhook: ZChannelPatch.optional(),
        email: ZChannelPatch.optional(),
      })
      .optional(),
    muted_codes: z
      .array(ZMutedCode)
      .max(MUTED_CODES_MAX, { message: `at most ${MUTED_CODES_MAX} codes` })
      .optional()
      .describe(`Replaces the whole list; at most ${MUTED_CODES_MAX}, exact codes or prefixes ending in *.`),
  })
  .meta({ id: "UpdateNotificationPreferencesInput" });
export type TUpdatePreferencesInput = z.infer<typeof ZUpdatePreferencesInput>;
