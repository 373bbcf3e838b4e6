import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproval, ZFindApprovalsQuery } from "./approval.schema";

export const findApprovalsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/approvals",
    tags: ["Approvals"],
    summary: "List approvals",
    description:
      "kind=request: agents' requests (grant_scope, connect_integration, provide_data); kind=write: agents' writes held for consent.",
  },
};
export const ZFindApprovalsRequest = ZFindApprovalsQuery;
export const ZFindApprovalsResponse = ZListOf(ZApproval);
