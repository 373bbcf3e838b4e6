import { z } from "zod";
import { ZGrant } from "../agents/agent.schema";
import { ZPageQuery } from "../shared/pagination";
import { ZCurrency, ZStoredDate, ZTimestamp, ZUuid } from "../shared/schemas";

/**
 * Status names (the contract shows only `pending`): pending → approved | rejected | dismissed.
 * auto_approved: an agent's write within its limits (recorded, nothing to decide).
 */
export const APPROVAL_KINDS = ["request", "write"] as const;
export const APPROVAL_TRIGGERS = ["level_recommend", "over_limit", "request", "within_limits", "owner"] as const;
export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "dismissed", "auto_approved"] as const;

/**
 * What a pending ad budget change would commit if the owner approved it now (pinned-wave3 §1.1,
 * §1.3). Defined here, below ad-budget-changes, so that an approval can carry it; the write
 * computes it (write-registry.ts `effectsOf`).
 */
export const ZAdBudgetEffect = z
  .object({
    integration_id: ZUuid,
    campaign_id: z.string(),
    currency: ZCurrency,
    known_previous_daily_budget_minor: z
      .number()
      .int()
      .nullable()
      .describe(
        "The campaign's daily budget as the service knows it now (the newer of its latest applied change and the " +
          "platform's last report, in this currency); null when unknown.",
      ),
    claimed_previous_daily_budget_minor: z
      .number()
      .int()
      .nullable()
      .describe("The previous budget the agent claimed (its previous_daily_budget_minor); never counted."),
    new_daily_budget_minor: z.number().int(),
    delta_daily_minor: z.number().int().nullable().describe("new − known; null when unknown."),
    counted_daily_minor: z
      .number()
      .int()
      .describe("What it would count against limits if run now: max(0, new − known), or new when unknown."),
    effective_on: ZStoredDate.describe("Its effective_on, or the owner's today when it has none (it runs from approval)."),
    forecast: z
      .object({
        from: ZStoredDate,
        to: ZStoredDate,
        days: z.number().int().describe("Days of the forecast's default window [today, today + 29] from effective_on."),
        committed_minor: z
          .number()
          .int()
          .nullable()
          .describe("new_daily_budget_minor × days: what the forecast would commit for it; null beyond ±(2^53 − 1)."),
      })
      .describe("Its commitment over the forecast's default 30 days, in its currency."),
  })
  .meta({ id: "AdBudgetEffect" });
export type TAdBudgetEffect = z.infer<typeof ZAdBudgetEffect>;

export const ZApproval = z
  .object({
    id: ZUuid,
    kind: z.enum(APPROVAL_KINDS),
    action: z.string().describe("grant_scope, connect_integration, provide_data, or the held write's action."),
    status: z.enum(APPROVAL_STATUSES),
    agent_id: ZUuid.nullable(),
    reason: z.string().nullable(),
    trigger: z
      .enum(APPROVAL_TRIGGERS)
      .describe(
        "Why it waits (level_recommend, over_limit, request), or why it was auto_approved: within_limits (an agent at level execute) or owner (the owner's own write).",
      ),
    params: z.record(z.string(), z.unknown()).describe("The held write's body, or the request's terms."),
    amount_minor: z.number().int().nullable(),
    currency: ZCurrency.nullable(),
    result: z
      .unknown()
      .nullable()
      .describe(
        "{ status, data }: succeeded and what the approved write answered; for a connect_integration request connected, action_required or not_connectable, with the next step.",
      ),
    decision_note: z.string().nullable(),
    ad_budget_effect: ZAdBudgetEffect.nullable().describe(
      "A pending ad_budget_change.create: what it would commit if approved now (it is counted again then). Null otherwise.",
    ),
    decided_at: ZTimestamp.nullable(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Approval" });
export type TApproval = z.infer<typeof ZApproval>;

export const ZPendingApproval = z
  .object({ approval: z.object({ id: ZUuid, status: z.literal("pending") }) })
  .meta({ id: "PendingApproval", description: "The write waits for the owner's decision (HTTP 202)." });

export const ZFindApprovalsQuery = ZPageQuery.extend({
  kind: z.enum(APPROVAL_KINDS).optional(),
  status: z.enum(APPROVAL_STATUSES).optional(),
});

export const ZApproveInput = z.object({
  decision_note: z.string().trim().max(2000).optional(),
  params_override: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Fields of a held write to change before it runs, validated like the original body; for a grant_scope request { grant: { …fields to change } }; for a data request provider and description.",
    ),
});

export const ZDecisionInput = z.object({ decision_note: z.string().trim().max(2000).optional() });

export const ZPermissionRequestInput = z
  .object({
    agent_id: ZUuid,
    grant: ZGrant,
    reason: z.string().trim().max(2000).optional(),
  })
  .meta({ id: "PermissionRequestInput" });

export const ZDataRequestInput = z
  .object({
    action: z
      .enum(["connect_integration", "provide_data"])
      .describe("connect_integration: ask the owner to connect a provider; provide_data: ask for data (e.g. statements)."),
    provider: z.string().max(64).optional().describe("For connect_integration: the integration asked for."),
    description: z.string().trim().min(3).max(2000).describe("What is needed and why."),
    reason: z.string().optional().describe("Why you ask; required from agents, at least 3 characters."),
  })
  .meta({ id: "DataRequestInput" });

/** A write's answer: its record (201), or the pending approval (202). */
export function ZWriteResponse<T extends z.ZodType>(record: T) {
  return z.union([z.object({ data: record }), z.object({ data: ZPendingApproval })]);
}
