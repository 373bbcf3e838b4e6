import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproval, ZDecisionInput } from "./approval.schema";

export const rejectApprovalMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/approvals/{id}/reject",
    tags: ["Approvals"],
    summary: "Reject",
    description: "Nothing runs. A decided approval answers 409 state_conflict.",
  },
  planExpiry: "exempt",
};
export const ZRejectApprovalRequest = ZIdParam.extend(ZDecisionInput.shape);
export const ZRejectApprovalResponse = z.object({ data: ZApproval });
