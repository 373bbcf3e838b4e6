// Ad budget changes (pinned-wave2 §3.1): the body of POST /v1/ad-budget-changes and the record it answers.
import { z } from "zod";
import { isCurrencyCode } from "../../lib/currencies";
import { ZWriteResponse } from "../approvals/approval.schema";
import { ZAmountMinor, ZCurrency, ZDate, ZStoredDate, ZText, ZTimestamp, ZUuid } from "../shared/schemas";

/** The integrations whose campaigns have budgets. */
export const ADS_PROVIDERS = ["social_ads", "search_ads"] as const;
export const AD_BUDGET_CHANGE_STATUSES = ["planned", "applied", "failed"] as const;

const ZId = ZText.trim().min(1, { message: "must not be empty" }).max(128);
const ZBudget = ZAmountMinor.min(0, { message: "must be 0 or more" });

export const ZCreateAdBudgetChangeInput = z
  .object({
    integration_id: ZUuid.describe(
      "An active social_ads or search_ads integration of the owner's; its business is the grant's resource.",
    ),
    campaign_id: ZId.describe("The campaign's id on the ad platform (as get_business_ads lists it)."),
    ad_set_id: ZId.optional().describe("social_ads only."),
    ad_group_id: ZId.optional().describe("search_ads only."),
    previous_daily_budget_minor: ZBudget.optional().describe(
      "What the caller believes the daily budget is now. Kept as claimed_previous_daily_budget_minor and shown to the " +
        "owner; never counted: the limits count the increase over the budget the service knows.",
    ),
    new_daily_budget_minor: ZBudget.describe(
      "The daily budget asked for, in minor units of currency (5000 EUR = 50.00 EUR a day).",
    ),
    currency: ZCurrency.refine(isCurrencyCode, { message: "is not an ISO 4217 currency code" }).describe(
      "ISO 4217 currency of the budgets (the ad account's).",
    ),
    effective_on: ZDate.optional().describe("From today to today + 365 in the owner's timezone; default today."),
    note: ZText.trim().max(1000).optional().describe("A note for the owner, shown with the change."),
    reason: ZText.trim().max(2000).optional().describe("Why; required from agents (400 missing_reason)."),
  })
  .meta({ id: "CreateAdBudgetChangeInput" });
export type TCreateAdBudgetChangeInput = z.infer<typeof ZCreateAdBudgetChangeInput>;

export const ZAdBudgetChange = z
  .object({
    id: ZUuid,
    business_id: ZUuid,
    integration_id: ZUuid,
    platform: z.enum(ADS_PROVIDERS),
    account_id: z.string().nullable(),
    campaign_id: z.string(),
    ad_set_id: z.string().nullable(),
    ad_group_id: z.string().nullable(),
    previous_daily_budget_minor: z
      .number()
      .int()
      .nullable()
      .describe(
        "The campaign's daily budget as the service knew it when the change ran: the newer of the latest applied " +
          "change's new budget and the budget the platform last reported (in this currency); null when unknown.",
      ),
    claimed_previous_daily_budget_minor: z
      .number()
      .int()
      .nullable()
      .describe("The previous_daily_budget_minor the caller sent (what it claimed); never counted. Null when not sent."),
    new_daily_budget_minor: z.number().int(),
    delta_daily_minor: z.number().int().nullable().describe("new − previous (the known budget); null when unknown."),
    counted_daily_minor: z
      .number()
      .int()
      .describe("Counted against the agent's limits, per day: max(0, new − previous), the whole new budget when unknown."),
    currency: ZCurrency,
    effective_on: ZStoredDate,
    status: z.enum(AD_BUDGET_CHANGE_STATUSES),
    approval_id: ZUuid.describe("Every executed change has an approval (auto_approved, or the approved held one)."),
    limit_checked: ZUuid.nullable().describe(
      "The auto_approved approval of an agent's change counted within its grant's limits; null for the owner's and approved ones.",
    ),
    decision_id: ZUuid.nullable().describe("The agent decision an agent's change records (GET /v1/decisions/{id}/review)."),
    agent_id: ZUuid.nullable(),
    reason: z.string().nullable(),
    note: z.string().nullable(),
    created_at: ZTimestamp,
    applied_at: ZTimestamp.nullable(),
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: "AdBudgetChange" });
export type TAdBudgetChange = z.infer<typeof ZAdBudgetChange>;

export const ZCreateAdBudgetChangeResponse = ZWriteResponse(ZAdBudgetChange);
