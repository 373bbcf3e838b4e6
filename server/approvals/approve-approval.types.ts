import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproval, ZApproveInput } from "./approval.schema";

export const approveApprovalMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/approvals/{id}/approve",
    tags: ["Approvals"],
    summary: "Approve",
    description:
      "A held write runs now, exactly once, as the agent (params_override is validated like the original body; the grant's limits do not apply to what the owner approved). If it fails, nothing changes and the approval stays pending. A grant_scope request adds the grant: params_override { grant: { …fields } } replaces the requested grant's fields (null clears a limit), validated like a permission request's grant, and exactly that grant is stored and added. A data request's override may change provider and description; any other field answers 400 validation_error. A connect_integration request connects nothing by itself (a connection needs the owner's business, provider account, OAuth consent or secret): its result is connected (with the owner's active integration_ids of that provider), action_required (next_step names the owner's connect operation and its required fields) or not_connectable; never succeeded. A decided approval answers 409 state_conflict.",
  },
};
export const ZApproveApprovalRequest = ZIdParam.extend(ZApproveInput.shape);
export const ZApproveApprovalResponse = z.object({ data: ZApproval });
