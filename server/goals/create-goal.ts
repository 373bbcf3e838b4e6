import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createGoalMeta, ZCreateGoalRequest, ZCreateGoalResponse } from "./create-goal.types";
import { createGoal } from "./goal-service";

export const createGoalRoute = ownerProcedure
  .meta(createGoalMeta)
  .input(ZCreateGoalRequest)
  .output(ZCreateGoalResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createGoal(ctx.db, callerOf(ctx), input) }));
