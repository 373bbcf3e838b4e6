import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproval, ZDecisionInput } from "./approval.schema";

export const dismissApprovalMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/approvals/{id}/dismiss",
    tags: ["Approvals"],
    summary: "Dismiss a request",
    description: "For requests only (a held write answers 409 state_conflict: reject it).",
  },
  planExpiry: "exempt",
};
export const ZDismissApprovalRequest = ZIdParam.extend(ZDecisionInput.shape);
export const ZDismissApprovalResponse = z.object({ data: ZApproval });
