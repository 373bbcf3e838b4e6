import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { approve } from "./approval-service";
import { approveApprovalMeta, ZApproveApprovalRequest, ZApproveApprovalResponse } from "./approve-approval.types";

export const approveApprovalRoute = ownerProcedure
  .meta(approveApprovalMeta)
  .input(ZApproveApprovalRequest)
  .output(ZApproveApprovalResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await approve(ctx.db, callerOf(ctx), id, body) }));
