import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { proposeGoals } from "./goal-proposals";
import { proposeGoalsMeta, ZProposeGoalsRequest, ZProposeGoalsResponse } from "./propose-goals.types";

export const proposeGoalsRoute = ownerProcedure
  .meta(proposeGoalsMeta)
  .input(ZProposeGoalsRequest)
  .output(ZProposeGoalsResponse)
  .mutation(async ({ ctx, input }) => ({ data: await proposeGoals(ctx.db, callerOf(ctx), input) }));
