import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { previewPlanChange } from "./plan-service";
import { previewPlanChangeMeta, ZPreviewPlanChangeRequest, ZPreviewPlanChangeResponse } from "./preview-plan-change.types";

export const previewPlanChangeRoute = ownerProcedure
  .meta(previewPlanChangeMeta)
  .input(ZPreviewPlanChangeRequest)
  .output(ZPreviewPlanChangeResponse)
  .query(async ({ ctx, input }) => ({ data: await previewPlanChange(ctx.db, callerOf(ctx), input.to) }));
