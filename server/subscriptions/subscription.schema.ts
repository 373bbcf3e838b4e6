import { z } from "zod";
import { EXACTLY_ONE_SCOPE_JSON, exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import {
  ZAmountMinor,
  ZCurrency,
  ZDate,
  ZName,
  ZQueryBoolean,
  ZStoredDate,
  ZTimestamp,
  ZUuid,
  zStoredMinor,
} from "../shared/schemas";
import { ZBaseAmountFields } from "../fx/base-amounts";

export const BILLING_INTERVALS = ["week", "month", "quarter", "year"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "paused", "cancelled"] as const;

export const ZBillingInterval = z.enum(BILLING_INTERVALS);
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

const ZCategory = z.string().trim().min(1, { message: "must not be empty" }).max(100);
const ZCostMinor = ZAmountMinor.min(0, { message: "must not be negative" });

export const ZAllocation = z
  .object({
    project_id: ZUuid,
    share_bps: z.number().int().min(1).max(10_000).describe("Basis points of the subscription's cost."),
    amount_minor: zStoredMinor(
      "This share of the subscription's amount_minor. The amount is split by largest remainder: every share is rounded down, " +
        "the minor units left over go one each to the shares with the largest remainders, so the parts sum exactly to the whole.",
    ),
    currency: ZCurrency,
    ...ZBaseAmountFields.shape,
  })
  .meta({ id: "SubscriptionAllocation" });
export type TAllocation = z.infer<typeof ZAllocation>;

export const ZCapacity = z
  .object({
    unit: z.string().describe("What is counted: seats, GB, calls…"),
    total: z.number().int().min(0),
    used: z.number().int().min(0),
    available: z.number().int().min(0).describe("total − used."),
    utilization: z.number().min(0).max(1).describe("used / total; 0 when total is 0."),
    updated_at: ZTimestamp,
  })
  .meta({ id: "SubscriptionCapacity" });
export type TCapacity = z.infer<typeof ZCapacity>;

export const ZSubscription = z
  .object({
    id: ZUuid,
    ...ZScopeOut.shape,
    name: z.string(),
    amount_minor: zStoredMinor("Cost per billing interval, in the original currency."),
    currency: ZCurrency,
    ...ZBaseAmountFields.shape,
    billing_interval: ZBillingInterval,
    next_charge_on: ZStoredDate,
    category: z.string().nullable(),
    status: ZSubscriptionStatus,
    source_type: z.string().describe("MANUAL (entered by the owner) or IMPORT (accepted from an import's proposals)."),
    provenance: z.record(z.string(), z.unknown()).nullable().describe("Where the record came from: { source: { type, … } }."),
    confidence: z.number().min(0).max(1),
    allocations: z
      .array(ZAllocation)
      .describe(
        "How the cost splits over projects of the business; empty when not allocated. Order: share_bps desc, project_id.",
      ),
    capacity: ZCapacity.nullable(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Subscription" });
export type TSubscription = z.infer<typeof ZSubscription>;

export const ZCreateSubscriptionInput = ZScopeFields.extend({
  name: ZName,
  amount_minor: ZCostMinor,
  currency: ZCurrency,
  billing_interval: ZBillingInterval,
  next_charge_on: ZDate,
  category: ZCategory.optional(),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateSubscriptionInput", ...EXACTLY_ONE_SCOPE_JSON });
export type TCreateSubscriptionInput = z.infer<typeof ZCreateSubscriptionInput>;

export const ZUpdateSubscriptionInput = z
  .object({
    name: ZName.optional(),
    amount_minor: ZCostMinor.optional(),
    currency: ZCurrency.optional(),
    billing_interval: ZBillingInterval.optional(),
    next_charge_on: ZDate.optional(),
    category: ZCategory.nullable().optional().describe("null clears it."),
    status: ZSubscriptionStatus.optional().describe("active ↔ paused; cancelled is final."),
  })
  .meta({ id: "UpdateSubscriptionInput" });
export type TUpdateSubscriptionInput = z.infer<typeof ZUpdateSubscriptionInput>;

export const ZPutAllocationsInput = z
  .object({
    allocations: z
      .array(z.object({ project_id: ZUuid, share_bps: z.number().int().min(1).max(10_000) }))
      .max(100)
      .superRefine((entries, ctx) => {
        const seen = new Set<string>();
        entries.forEach((entry, index) => {
          if (seen.has(entry.project_id))
            ctx.addIssue({ code: "custom", path: [index, "project_id"], message: "appears more than once" });
          seen.add(entry.project_id);
        });
      })
      .describe("The whole list; it replaces the current one. share_bps must sum to 10000; [] clears the allocations."),
  })
  .meta({ id: "PutAllocationsInput" });
export type TPutAllocationsInput = z.infer<typeof ZPutAllocationsInput>;

const ZCount = z.number().int().min(0).max(2_147_483_647);

export const ZPutCapacityInput = z
  .object({
    unit: z.string().trim().min(1, { message: "must not be empty" }).max(32).describe("seats, GB, calls…"),
    total: ZCount,
    used: ZCount,
  })
  .meta({ id: "PutCapacityInput" });
export type TPutCapacityInput = z.infer<typeof ZPutCapacityInput>;

export const ZSubscriptionFilters = z.object({
  business_id: ZUuid.optional().describe("Subscriptions of this business, including its projects'."),
  project_id: ZUuid.optional(),
  personal: ZQueryBoolean.optional(),
  status: ZSubscriptionStatus.optional(),
  currency: ZCurrency.optional(),
  source_type: z.string().max(64).optional(),
});
export type TSubscriptionFilters = z.infer<typeof ZSubscriptionFilters>;
