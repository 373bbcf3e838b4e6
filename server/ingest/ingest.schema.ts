// What integrations hand to the ingest paths (contract: NormalizedEvent, IntegrationSignal,
// CashSnapshotInput) and what the paths answer. Events are validated one by one (a bad event
// is rejected, the rest go in); signals are validated with their request.
import { EVENT_STATES, INGEST_EVENT_TYPES } from "../../lib/event-types";
import { MONEY_DIRECTIONS } from "../../lib/money-direction";
import { z } from "zod";
import { INGEST_SOURCE_TYPES } from "../sources/providers";
import { findJsonProblem } from "../shared/safe-text";
import { ZAmountMinor, ZDate, ZTimestamp, ZUuid } from "../shared/schemas";

/** A C0 control character (U+0000–U+001F): refused in keys. One regex test, where a per-character walk allocated. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

const ZExternalId = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(255, { message: "must be at most 255 characters" })
  .refine((value) => !CONTROL_CHARACTER.test(value), { message: "must not contain control characters" });

/**
 * Items arrive as parsed JSON whose strings may hold a NUL or a lone surrogate (the webhook
 * body reader leaves text to the items, so one bad item is one rejection): refused here, with
 * the field's path, before anything reaches PostgreSQL.
 */
function refuseUnsafeText(item: unknown, ctx: z.RefinementCtx): void {
  const problem = findJsonProblem(item, { root: "(item)" });
  if (problem) ctx.addIssue({ code: "custom", path: problem.path.split("."), message: problem.message });
}

const ZOneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(100)]);

/** Payload keys the contract names; other keys are kept as sent. */
export const ZNormalizedPayload = z
  .looseObject({
    platform: z.string().max(64).optional(),
    account_id: z.string().max(128).optional(),
    campaign_id: z.string().max(128).optional(),
    ad_group_id: z.string().max(128).optional(),
    ad_set_id: z.string().max(128).optional(),
    ad_id: z.string().max(128).optional(),
    metrics: z.record(z.string(), z.unknown()).optional(),
    refunds_external_id: ZExternalId.optional(),
    direction: z.enum(MONEY_DIRECTIONS).optional(),
    fulfills_event_id: ZUuid.optional(),
    reconciles_event_id: ZOneOrMany(ZUuid).optional(),
    supersedes_external_id: ZOneOrMany(ZExternalId).optional(),
    reconciled: z.boolean().optional(),
    batch_id: z.string().max(128).optional(),
  })
  .meta({ id: "NormalizedEventPayload" });

export const ZNormalizedEvent = z
  .object({
    integration_id: ZUuid,
    external_id: ZExternalId.describe("Deduplication key within the integration."),
    type: z.enum(INGEST_EVENT_TYPES),
    state: z.enum(EVENT_STATES),
    amount_minor: ZAmountMinor,
    currency: z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case, e.g. EUR" }),
    occurred_on: ZDate,
    business_id: ZUuid.optional().describe("Default: the integration's business."),
    project_id: ZUuid.optional(),
    category: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).optional(),
    subscription_id: ZUuid.optional(),
    source_type: z.enum(INGEST_SOURCE_TYPES),
    confidence: z.number().min(0).max(1).optional().describe("Default 1.0; at most 0.9 for a refund whose event is unknown."),
    payload: ZNormalizedPayload.optional(),
  })
  .superRefine(refuseUnsafeText)
  .meta({ id: "NormalizedEvent" });
export type TNormalizedEvent = z.infer<typeof ZNormalizedEvent>;

export const REJECTION_CODES = ["currency_unsupported", "fx_unavailable", "validation_error", "currency_mismatch"] as const;

export const ZRejectedItem = z
  .object({
    external_id: z.string().nullable().describe("null only when the item had no usable external_id."),
    code: z.enum(REJECTION_CODES),
    message: z.string().optional(),
    index: z.number().int().describe("Position of the item in the request's list."),
  })
  .meta({ id: "IngestRejection" });
export type TRejectedItem = z.infer<typeof ZRejectedItem>;

export const ZIngestResult = z.object({
  inserted: z.number().int().describe("New events, restatements included."),
  deduped: z.number().int().describe("Repeats of a stored (integration_id, external_id) with the same amount and currency."),
  rejected: z.array(ZRejectedItem),
});
export type TIngestResult = z.infer<typeof ZIngestResult>;

// --- signals ---

export const SIGNAL_CODES = [
  "payment_failed",
  "dispute_opened",
  "payout_paid",
  "payout_failed",
  "subscription_past_due",
  "subscription_churned",
  "campaign_paused",
  "campaign_removed",
  "budget_limited",
  "ad_disapproved",
  "account_suspended",
  "integration_auth_expired",
  "budget_change_applied",
  "budget_change_failed",
  "usage_unmapped_key",
  "unreconciled",
  "revenue_drop_source",
  "spend_spike_source",
  "balance_low",
] as const;
export type TSignalCode = (typeof SIGNAL_CODES)[number];
export const SEVERITIES = ["info", "warning", "critical"] as const;
export type TSeverity = (typeof SEVERITIES)[number];

/** Contract, Signal codes: critical for these four, info for payout_paid, warning for the rest. */
export function defaultSeverity(code: TSignalCode): TSeverity {
  if (["payout_failed", "account_suspended", "integration_auth_expired", "dispute_opened", "balance_low"].includes(code))
    return "critical";
  if (code === "payout_paid") return "info";
  return "warning";
}

export const ZIntegrationSignal = z
  .object({
    integration_id: ZUuid,
    external_id: ZExternalId.describe("Dedup key within the integration."),
    code: z.enum(SIGNAL_CODES),
    occurred_at: ZTimestamp,
    business_id: ZUuid.optional().describe("Default: the integration's business."),
    severity: z.enum(SEVERITIES).optional().describe("Default from the contract's Signal codes table."),
    amount_minor: ZAmountMinor.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    ref: z.record(z.string().max(64), z.string().max(256)).optional(),
    message: z.string().max(1000).optional(),
  })
  .refine((s) => (s.amount_minor === undefined) === (s.currency === undefined), {
    message: "amount_minor and currency go together",
    path: ["currency"],
  })
  .superRefine(refuseUnsafeText)
  .meta({ id: "IntegrationSignal" });
export type TIntegrationSignal = z.infer<typeof ZIntegrationSignal>;

export const ZSignalResult = z.object({ accepted: z.number().int(), deduped: z.number().int() });
export type TSignalResult = z.infer<typeof ZSignalResult>;

// --- cash snapshots ---

export const ZCashSnapshotInput = z
  .object({
    business_id: ZUuid.optional(),
    personal: z.literal(true).optional(),
    amount_minor: ZAmountMinor,
    currency: z.string().regex(/^[A-Z]{3}$/),
    as_of: ZTimestamp,
    provenance: z.object({
      source: z.object({ type: z.string(), integration_id: ZUuid, external_id: z.string().optional() }),
    }),
    payload: z.object({ account_id: z.string().min(1).max(128), iban_last4: z.string().optional() }),
  })
  .superRefine(refuseUnsafeText)
  .meta({ id: "CashSnapshotInput" });
export type TCashSnapshotInput = z.infer<typeof ZCashSnapshotInput>;

export const ZSnapshotResult = ZIngestResult.extend({
  inserted: z.number().int().describe("New account-days and same-day overwrites with a later as_of."),
  deduped: z.number().int().describe("Same account-day with an as_of not later than the stored one."),
});
export type TSnapshotResult = z.infer<typeof ZSnapshotResult>;

/** A delivery: events and signals of one request, written in one transaction. */
export type TDelivery = { events?: unknown[]; signals?: TIntegrationSignal[] };
export const ZDeliveryResult = ZIngestResult.extend({
  signals_accepted: z.number().int(),
  signals_deduped: z.number().int(),
}).meta({ id: "IngestResult" });
export type TDeliveryResult = z.infer<typeof ZDeliveryResult>;
