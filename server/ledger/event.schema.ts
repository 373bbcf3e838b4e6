// Financial events: the stored record (contract "Financial event as written by integrations"
// plus what stored events carry) and the owner's manual inputs (DESIGN.md, Records).
import { z } from "zod";
import { isCurrencyCode } from "../../lib/currencies";
import { EVENT_STATES, EVENT_TYPES } from "../../lib/event-types";
import { MONEY_DIRECTIONS } from "../../lib/money-direction";
import { ZFxInfo } from "../fx/fx.schema";
import { ZListFilters, ZPageQuery } from "../shared/pagination";
import { ZBillingInterval } from "../subscriptions/subscription.schema";
import { exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import { ZAmountMinor, ZCurrency, ZDate, ZName, ZStoredDate, ZTimestamp, ZUuid, zStoredMinor } from "../shared/schemas";

// Enum lists grow additively (contract Versioning 1): clients must accept values they do not know.
// Types and states are shared with the panel: lib/event-types.ts.
export const EVENT_STATUSES = ["confirmed", "voided"] as const;
/** MANUAL is this service's own value for what the owner enters by hand. */
export const SOURCE_TYPES = ["MANUAL", "PAYMENTS_API", "SEARCH_ADS_API", "SOCIAL_ADS_API", "IMPORT"] as const;

const ZJsonObject = z.record(z.string(), z.unknown());

export const ZEvent = z
  .object({
    id: ZUuid,
    type: z.enum(EVENT_TYPES).describe("New values may be added (additive change)."),
    state: z.enum(EVENT_STATES),
    status: z.enum(EVENT_STATUSES).describe("voided: replaced by a restatement; listed, but excluded from aggregates."),
    amount_minor: zStoredMinor("Original amount in integer minor units; negative only from integrations."),
    currency: ZCurrency,
    base_amount_minor: z
      .number()
      .int()
      .nullable()
      .describe(
        "The amount in base_currency. Frozen at write for actual events; for planned events computed at read at the current rate. " +
          "null when no rate is available at read (a planned event whose currency the rate source no longer covers; then " +
          "base_currency and fx are null too), or when the value is beyond the exact integer range ±(2^53 − 1): stored " +
          "before writes refused it, or a planned event's amount at today's rate. Then base_currency and fx are shown and " +
          "amount_minor stays exact; a base amount is never rounded. Writes refuse such an amount (400 validation_error).",
      ),
    base_currency: ZCurrency.nullable().describe(
      "The owner's base currency: at write time for actual events (frozen), at read time for others.",
    ),
    fx: ZFxInfo.nullable().describe(
      "kind snapshot (frozen) for actual events, kind current for others; null when no rate is available (see base_amount_minor).",
    ),
    occurred_on: ZStoredDate.describe("The day it happened; for planned events the planned day."),
    ...ZScopeOut.shape,
    category: z.string().nullable(),
    description: z.string().nullable(),
    source_type: z.enum(SOURCE_TYPES).describe("MANUAL for owner entries. New values may be added (additive change)."),
    integration_id: ZUuid.nullable(),
    external_id: z.string().nullable(),
    provenance: ZJsonObject.describe('Where it came from, e.g. { source: { type: "MANUAL", actor: { type, id } } }.'),
    confidence: z.number().min(0).max(1),
    payload: ZJsonObject,
    subscription_id: ZUuid.nullable(),
    refunds_event_id: ZUuid.nullable(),
    supersedes_event_id: ZUuid.nullable(),
    supersedes_event_ids: z.array(ZUuid),
    variance_minor: zStoredMinor("A fulfilled planned event: actual − planned amount; null otherwise."),
    direction: z.enum(MONEY_DIRECTIONS).nullable().describe("Refunds: in = refund of a cost, out = refund of revenue."),
    fulfilled_by_event_id: ZUuid.nullable(),
    reconciled: z.boolean().describe("An import line matched to an integration's event; excluded from aggregates."),
    created_at: ZTimestamp,
  })
  .meta({ id: "Event" });
export type TEvent = z.infer<typeof ZEvent>;

// --- inputs ---

const ZKnownCurrency = ZCurrency.refine(isCurrencyCode, { message: "is not an ISO 4217 currency code" });

/** Manual entries are positive; refunds and negative corrections come from integrations. */
const ZPositiveAmountMinor = ZAmountMinor.refine((value) => value > 0, { message: "must be a positive amount" });

const ZCategory = z.string().trim().min(1, { message: "must not be empty" }).max(100);
const ZDescription = z.string().trim().max(1000);

const ZManualEventFields = ZScopeFields.extend({
  amount_minor: ZPositiveAmountMinor.describe("Positive integer minor units (cents for EUR), at most 2^53 - 1."),
  currency: ZKnownCurrency,
  occurred_on: ZDate,
  category: ZCategory.optional(),
  description: ZDescription.optional(),
});

export const ZCreateExpenseInput = ZManualEventFields.extend({
  occurred_on: ZDate.describe("The day it was paid; not after today in the owner's timezone."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateExpenseInput" });
export const ZCreateRevenueInput = ZManualEventFields.extend({
  occurred_on: ZDate.describe("The day it was received; not after today in the owner's timezone."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateRevenueInput" });
export const ZCreatePlannedExpenseInput = ZManualEventFields.extend({
  occurred_on: ZDate.describe("The planned day."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreatePlannedExpenseInput" });
export type TManualEventInput = z.infer<typeof ZCreateExpenseInput>;

export const ZCreateRecurringExpenseInput = ZScopeFields.extend({
  name: ZName,
  amount_minor: ZPositiveAmountMinor.describe("Positive integer minor units per charge."),
  currency: ZKnownCurrency,
  billing_interval: ZBillingInterval,
  next_charge_on: ZDate.describe(
    "The first charge recorded: on or before today it is an actual event (already paid), later a planned one.",
  ),
  category: ZCategory.optional(),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateRecurringExpenseInput" });
export type TCreateRecurringExpenseInput = z.infer<typeof ZCreateRecurringExpenseInput>;

// --- list query ---

export const ZFindEventsQuery = ZPageQuery.extend(ZListFilters.shape)
  .extend({
    type: z.enum(EVENT_TYPES).optional(),
    state: z.enum(EVENT_STATES).optional(),
    status: z.enum(EVENT_STATUSES).optional().describe("Default: both; voided events are listed with status voided."),
    source_type: z.enum(SOURCE_TYPES).optional(),
    from: ZDate.optional().describe("occurred_on on or after this day."),
    to: ZDate.optional().describe("occurred_on on or before this day (inclusive)."),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: "must not be after to",
    path: ["from"],
  });
export type TFindEventsQuery = z.infer<typeof ZFindEventsQuery>;
