import { ownerProcedure } from "../trpc/init";
import { findApprovals } from "./approval-service";
import { findApprovalsMeta, ZFindApprovalsRequest, ZFindApprovalsResponse } from "./find-approvals.types";

export const findApprovalsRoute = ownerProcedure
  .meta(findApprovalsMeta)
  .input(ZFindApprovalsRequest)
  .output(ZFindApprovalsResponse)
  .query(({ ctx, input }) => findApprovals(ctx.db, ctx.actor.ownerId, input, ctx.clock.now()));
