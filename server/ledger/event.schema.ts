// Financial events: the stored record (contract "Financial event as written by integrations"
// plus what stored events carry) and the owner's manual inputs (DESIGN.md, Records).
import { z } from "zod";
import { isCurrencyCode } from "../../lib/currencies";
import { EVENT_STATES, EVENT_TYPES } from "../../lib/event-types";
import { MONEY_DIRECTIONS } from "../../lib/money-direction";
import { ZFxInfo } from "../fx/fx.schema";
import { ZListFilters, ZPageQuery } from "../shared/pagination";
import { ZBillingInterval } from "../subscriptions/subscription.schema";
import { EXACTLY_ONE_SCOPE_JSON, exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import {
  ZAmountMinor,
  ZCurrency,
  ZDate,
  ZName,
  ZQueryBoolean,
  ZStoredDate,
  ZText,
  ZTimestamp,
  ZUuid,
  zStoredMinor,
} from "../shared/schemas";

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
    reconciled: z
      .boolean()
      .describe("An import line matched to an integration's event or an entry made by hand; excluded from aggregates."),
    created_at: ZTimestamp,
  })
  .meta({ id: "Event" });
export type TEvent = z.infer<typeof ZEvent>;

// --- inputs ---

const ZKnownCurrency = ZCurrency.refine(isCurrencyCode, { message: "is not an ISO 4217 currency code" });

/** Manual entries are positive; refunds and negative corrections come from integrations. */
// gt, not a refine: the OpenAPI document says exclusiveMinimum 0 for it.
const ZPositiveAmountMinor = ZAmountMinor.gt(0, { message: "must be a positive amount" });

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
  .meta({ id: "CreateExpenseInput", ...EXACTLY_ONE_SCOPE_JSON });
export const ZCreateRevenueInput = ZManualEventFields.extend({
  occurred_on: ZDate.describe("The day it was received; not after today in the owner's timezone."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateRevenueInput", ...EXACTLY_ONE_SCOPE_JSON });
export const ZCreatePlannedExpenseInput = ZManualEventFields.extend({
  occurred_on: ZDate.describe("The planned day."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreatePlannedExpenseInput", ...EXACTLY_ONE_SCOPE_JSON });
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
  .meta({ id: "CreateRecurringExpenseInput", ...EXACTLY_ONE_SCOPE_JSON });
export type TCreateRecurringExpenseInput = z.infer<typeof ZCreateRecurringExpenseInput>;

// --- list query ---

/**
 * The orders of GET /v1/events (additive, issue 14). `-created_at` is the contract's order and
 * the default; the others sort by the day or the base amount, newest or largest first with `-`.
 */
export const EVENT_SORTS = ["-created_at", "-occurred_on", "occurred_on", "-amount", "amount"] as const;
export type TEventSort = (typeof EVENT_SORTS)[number];

/** The sides of the profit and loss (server/reports/profit-and-loss.ts TYPE_ROWS). */
export const PNL_SIDES = ["in", "out"] as const;

/** The filters of the events list, its totals and its CSV export (one meaning for all three). */
export const ZEventFilters = ZListFilters.extend({
  type: z
    .enum(EVENT_TYPES)
    .optional()
    .describe("Only events of this type (expense, revenue, refund, ad_spend, …; planned_expense for planned costs)."),
  state: z.enum(EVENT_STATES).optional().describe("actual: it happened; planned: expected, counted in forecasts only."),
  status: z.enum(EVENT_STATUSES).optional().describe("Default: both; voided events are listed with status voided."),
  source_type: z.enum(SOURCE_TYPES).optional().describe("Where the events came from (MANUAL for owner entries)."),
  from: ZDate.optional().describe("occurred_on on or after this day."),
  to: ZDate.optional().describe("occurred_on on or before this day (inclusive)."),
  q: ZText.trim()
    .max(200)
    .optional()
    .describe(
      "Search (additive): events whose description, category or counterparty (payload.counterparty of imported lines) " +
        "contains this text, case-insensitive. % and _ are matched literally, not as wildcards. Empty = no search.",
    ),
  category: ZText.trim()
    .max(100)
    .optional()
    .describe("Additive: events of exactly this category, case-insensitive. Empty = no filter."),
  no_category: ZQueryBoolean.optional().describe(
    "Additive (issue 36): true = only events without a category (the reports' Uncategorized row). false = no filter.",
  ),
  no_project: ZQueryBoolean.optional().describe(
    "Additive (issue 36): true = only events without a project (the reports' No project row). false = no filter.",
  ),
  counted: ZQueryBoolean.optional().describe(
    "Additive (issue 36): true = only the events the financial summary and the reports count: actual, confirmed, not " +
      "a reconciled import line, moving money (K3, K4). false = no filter.",
  ),
  side: z
    .enum(PNL_SIDES)
    .optional()
    .describe(
      "Additive (issue 36): the side of the profit and loss an event counts on. in: revenue and refunds to customers " +
        "(refund out); out: expense, recurring_expense, ad_spend and refunds received (refund in). Events that move no " +
        "money are on neither side.",
    ),
});

function fromNotAfterTo(query: { from?: string; to?: string }) {
  return !query.from || !query.to || query.from <= query.to;
}
const FROM_AFTER_TO = { message: "must not be after to", path: ["from"] };

export const ZEventFiltersQuery = ZEventFilters.refine(fromNotAfterTo, FROM_AFTER_TO);
export type TEventFilters = z.infer<typeof ZEventFilters>;

const ZEventSort = z
  .enum(EVENT_SORTS)
  .default("-created_at")
  .describe(
    "Additive. -created_at (default): newest first, the contract's order. -occurred_on / occurred_on: by the day it " +
      "happened, newest or oldest first (ties: created_at, id). -amount / amount: by base_amount_minor, largest or " +
      "smallest first (ties: created_at, id); events without a frozen base amount (planned events) come last. " +
      "A cursor belongs to the sort it was issued for.",
  );

export const ZFindEventsQuery = ZPageQuery.extend(ZEventFilters.shape)
  .extend({ sort: ZEventSort })
  .refine(fromNotAfterTo, FROM_AFTER_TO);

/** GET /v1/events/export: the list's filters and sort, every page. */
export const ZExportEventsQuery = ZEventFilters.extend({ sort: ZEventSort })
  .refine(fromNotAfterTo, FROM_AFTER_TO)
  .meta({ id: "ExportEventsQuery" });
export type TFindEventsQuery = z.infer<typeof ZFindEventsQuery>;

// --- totals of a filtered list ---

export const ZEventTotals = z
  .object({
    base_currency: ZCurrency.describe("The owner's base currency; every total is in it."),
    in_minor: z.number().int().describe("Σ base_amount_minor of the counted rows whose money comes in (revenue, refund in)."),
    out_minor: z
      .number()
      .int()
      .describe("Σ base_amount_minor of the counted rows whose money goes out (expense, ad_spend, recurring, refund out)."),
    net_minor: z.number().int().describe("in_minor − out_minor."),
    counted: z.number().int().describe("How many of the matching rows count in the totals."),
    not_counted: z
      .number()
      .int()
      .describe("Matching rows left out: voided, reconciled import lines, planned events (commitments, not money moved)."),
  })
  .meta({ id: "EventTotals" });
export type TEventTotals = z.infer<typeof ZEventTotals>;

// --- fixing mistakes (manual events only) ---

export const ZVoidEventInput = z.object({
  reason: ZText.trim().max(500).optional().describe("Why it is voided; kept in the audit entry."),
});
export type TVoidEventInput = z.infer<typeof ZVoidEventInput>;

export const ZCorrectionFields = ZScopeFields.extend({
  amount_minor: ZPositiveAmountMinor.optional().describe("Positive integer minor units, at most 2^53 - 1."),
  currency: ZKnownCurrency.optional(),
  occurred_on: ZDate.optional().describe("For an actual event not after today in the owner's timezone."),
  category: ZCategory.nullable().optional().describe("null clears it."),
  description: ZDescription.nullable().optional().describe("null clears it."),
  reason: ZText.trim().max(500).optional().describe("Why it is corrected; kept in the audit entries."),
});

/** At most one scope; none keeps the corrected event's scope. */
export function atMostOneScope(input: z.infer<typeof ZScopeFields>, ctx: z.RefinementCtx) {
  const given = [input.business_id !== undefined, input.project_id !== undefined, input.personal !== undefined];
  if (given.filter(Boolean).length > 1) exactlyOneScope(input, ctx);
}

export const ZCorrectEventInput = ZCorrectionFields.superRefine(atMostOneScope).meta({ id: "CorrectEventInput" });
export type TCorrectEventInput = z.infer<typeof ZCorrectEventInput>;
