import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { decide } from "./approval-service";
import { dismissApprovalMeta, ZDismissApprovalRequest, ZDismissApprovalResponse } from "./dismiss-approval.types";

export const dismissApprovalRoute = ownerProcedure
  .meta(dismissApprovalMeta)
  .input(ZDismissApprovalRequest)
  .output(ZDismissApprovalResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await decide(ctx.db, callerOf(ctx), id, "dismissed", body) }));
