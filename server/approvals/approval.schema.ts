import { z } from "zod";
import { ZGrant } from "../agents/agent.schema";
import { ZPageQuery } from "../shared/pagination";
import { ZCurrency, ZTimestamp, ZUuid } from "../shared/schemas";

/**
 * Status names (the contract shows only `pending`): pending → approved | rejected | dismissed.
 * auto_approved: an agent's write within its limits (recorded, nothing to decide).
 */
export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "dismissed", "auto_approved"] as const;

export const ZApproval = z
  .object({
    id: ZUuid,
    kind: z.enum(["request", "write"]),
    action: z.string().describe("grant_scope, connect_integration, provide_data, or the held write's action."),
    status: z.enum(APPROVAL_STATUSES),
    agent_id: ZUuid.nullable(),
    reason: z.string().nullable(),
    trigger: z
      .enum(["level_recommend", "over_limit", "request", "within_limits", "owner"])
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
  kind: z.enum(["request", "write"]).optional(),
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
    action: z.enum(["connect_integration", "provide_data"]),
    provider: z.string().max(64).optional().describe("For connect_integration: the integration asked for."),
    description: z.string().trim().min(3).max(2000).describe("What is needed and why."),
    reason: z.string().optional(),
  })
  .meta({ id: "DataRequestInput" });

/** A write's answer: its record (201), or the pending approval (202). */
export function ZWriteResponse<T extends z.ZodType>(record: T) {
  return z.union([z.object({ data: record }), z.object({ data: ZPendingApproval })]);
}
