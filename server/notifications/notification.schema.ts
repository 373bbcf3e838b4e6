// Notifications and the owner's notification preferences (contract: Notification; pinned-wave2
// §4.1–4.3). Severity values are ordered: info < warning < critical.
import { z } from "zod";
import { MUTED_CODE_MAX_LENGTH, MUTED_CODE_PATTERN, MUTED_CODES_MAX } from "./muted-codes";
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

export const ZDeliveryAttempt = z
  .object({
    channel: z.enum(DELIVERY_CHANNELS).describe("New values may be added (additive change)."),
    at: ZTimestamp,
    status: z.enum(["delivered", "failed"]),
    error: z
      .string()
      .optional()
      .describe(
        "Why a failed attempt failed. Webhook: http_<status>, redirect_refused, timeout, address_refused, dns_failed, " +
          "connection_failed or tls_failed. Email: smtp_failed, or smtp_not_configured (the server lost its SMTP_URL). " +
          "Either: internal_error (retried).",
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
          "agent.token_expiring, daily_brief.ready (the day's brief, once a day from 07:00 in the owner's timezone; " +
          "body: its headline), plan.trial_ending, plan.expired. New codes may be added (additive change).",
      ),
    severity: ZSeverity,
    title: z.string().describe(`At most ${TITLE_MAX} characters.`),
    body: z.string().describe(`At most ${BODY_MAX} characters.`),
    ref: z
      .object({ type: z.string(), id: z.string() })
      .nullable()
      .describe(
        "The record it is about: { type: alert | approval | import | agent, id }, { type: daily_brief, id: <YYYY-MM-DD> } " +
          "(GET /v1/daily-brief?date=<id>), or null.",
      ),
    read_at: ZTimestamp.nullable().describe("When the owner marked it read; null while unread."),
    delivered: z
      .array(ZDeliveryAttempt)
      .describe("Every delivery attempt, oldest first; the in_app delivery is recorded when the notification is created."),
    created_at: ZTimestamp,
    resolution: z
      .object({
        status: z
          .enum(["approved", "rejected", "dismissed"])
          .describe("What the owner decided. New values may be added (additive change)."),
        decided_at: ZTimestamp.nullable(),
      })
      .nullable()
      .describe(
        "What became of the record it is about, once decided: an approval approved, rejected or dismissed " +
          "(its notification is marked read in the decision's transaction). null while it still waits, or " +
          "when the notification is about nothing that is decided.",
      ),
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

export const ZWebhookSettings = z
  .object({
    url: z.string(),
    enabled: z.boolean().describe("false: nothing is sent (queued attempts are dropped), the URL and secret are kept."),
    secret_hint: z.string().nullable().describe("The first characters of the signing secret, to recognise it."),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "NotificationWebhook" });
export type TWebhookSettings = z.infer<typeof ZWebhookSettings>;

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
    webhook: ZWebhookSettings.nullable().describe(
      "The outbound webhook (read-only here; set with PUT /v1/me/notification-webhook); null when none is set.",
    ),
  })
  .meta({ id: "NotificationPreferences" });
export type TNotificationPreferences = z.infer<typeof ZNotificationPreferences>;

const ZMutedCode = z
  .string()
  .trim()
  .min(1, { message: "must not be empty" })
  .max(MUTED_CODE_MAX_LENGTH)
  .regex(MUTED_CODE_PATTERN, {
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

// --- the outbound webhook (PUT /v1/me/notification-webhook) ---

export const WEBHOOK_URL_MAX = 2048;

export const ZSetWebhookInput = z
  .strictObject({
    // Length and form are judged by the URL policy (422 webhook_url_invalid, rule not_absolute), not here.
    url: z
      .string()
      .nullable()
      .describe(`The https URL to POST notifications to; null removes the webhook and drops queued attempts.`),
    enabled: z.boolean().optional().describe("Default true. false keeps the URL and secret but sends nothing."),
    rotate_secret: z.boolean().optional().describe("true makes a new signing secret (answered once, in this response)."),
  })
  .meta({ id: "SetNotificationWebhookInput" });
export type TSetWebhookInput = z.infer<typeof ZSetWebhookInput>;

export const ZNotificationWebhookResult = z
  .object({
    url: z.string().optional().describe("Absent after a removal."),
    enabled: z.boolean(),
    secret: z
      .string()
      .optional()
      .describe(
        "whsec_…: only when a secret was made (the webhook first set, set again after a removal, or rotate_secret). " +
          "Shown once; keep it to verify X-Service-Signature.",
      ),
    secret_hint: z.string().nullable().optional(),
    created_at: ZTimestamp.optional(),
    updated_at: ZTimestamp,
  })
  .meta({ id: "NotificationWebhookResult" });
export type TNotificationWebhookResult = z.infer<typeof ZNotificationWebhookResult>;
