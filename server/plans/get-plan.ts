import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { getPlanMeta, ZGetPlanRequest, ZGetPlanResponse } from "./get-plan.types";
import { getPlan } from "./plan-service";

export const getPlanRoute = ownerProcedure
  .meta(getPlanMeta)
  .input(ZGetPlanRequest)
  .output(ZGetPlanResponse)
  .query(async ({ ctx }) => ({ data: await getPlan(ctx.db, callerOf(ctx)) }));
