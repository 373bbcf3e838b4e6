import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateGoal } from "./goal-service";
import { updateGoalMeta, ZUpdateGoalRequest, ZUpdateGoalResponse } from "./update-goal.types";

export const updateGoalRoute = ownerProcedure
  .meta(updateGoalMeta)
  .input(ZUpdateGoalRequest)
  .output(ZUpdateGoalResponse)
  .mutation(async ({ ctx, input }) => {
    // kind and the scope were refused by the schema when sent; what is left are the changes.
    const { id, kind: _kind, business_id: _business, project_id: _project, personal: _personal, ...changes } = input;
    return { data: await updateGoal(ctx.db, callerOf(ctx), id, changes) };
  });
