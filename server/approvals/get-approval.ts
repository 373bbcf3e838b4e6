import { ownerProcedure } from "../trpc/init";
import { getApproval } from "./approval-service";
import { getApprovalMeta, ZGetApprovalRequest, ZGetApprovalResponse } from "./get-approval.types";

export const getApprovalRoute = ownerProcedure
  .meta(getApprovalMeta)
  .input(ZGetApprovalRequest)
  .output(ZGetApprovalResponse)
  .query(async ({ ctx, input }) => ({ data: await getApproval(ctx.db, ctx.actor.ownerId, input.id, ctx.clock.now()) }));
