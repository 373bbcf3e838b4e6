import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { getGoalMeta, ZGetGoalRequest, ZGetGoalResponse } from "./get-goal.types";
import { getGoal } from "./goal-service";

export const getGoalRoute = ownerProcedure
  .meta(getGoalMeta)
  .input(ZGetGoalRequest)
  .output(ZGetGoalResponse)
  .query(async ({ ctx, input }) => ({ data: await getGoal(ctx.db, callerOf(ctx), input.id) }));
