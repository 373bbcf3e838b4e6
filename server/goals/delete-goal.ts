import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { deleteGoalMeta, ZDeleteGoalRequest, ZDeleteGoalResponse } from "./delete-goal.types";
import { deleteGoal } from "./goal-service";

export const deleteGoalRoute = ownerProcedure
  .meta(deleteGoalMeta)
  .input(ZDeleteGoalRequest)
  .output(ZDeleteGoalResponse)
  .mutation(async ({ ctx, input }) => ({ data: await deleteGoal(ctx.db, callerOf(ctx), input.id) }));
