import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { changePlanMeta, ZChangePlanRequest, ZChangePlanResponse } from "./change-plan.types";
import { changePlan } from "./plan-service";

export const changePlanRoute = ownerProcedure
  .meta(changePlanMeta)
  .input(ZChangePlanRequest)
  .output(ZChangePlanResponse)
  .mutation(async ({ ctx, input }) => ({ data: await changePlan(ctx.db, callerOf(ctx), input.plan) }));
