import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { decide } from "./approval-service";
import { rejectApprovalMeta, ZRejectApprovalRequest, ZRejectApprovalResponse } from "./reject-approval.types";

export const rejectApprovalRoute = ownerProcedure
  .meta(rejectApprovalMeta)
  .input(ZRejectApprovalRequest)
  .output(ZRejectApprovalResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await decide(ctx.db, callerOf(ctx), id, "rejected", body) }));
