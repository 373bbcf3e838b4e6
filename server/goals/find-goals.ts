import { ownerProcedure } from "../trpc/init";
import { findGoalsMeta, ZFindGoalsRequest, ZFindGoalsResponse } from "./find-goals.types";
import { findGoals } from "./goal-service";

export const findGoalsRoute = ownerProcedure
  .meta(findGoalsMeta)
  .input(ZFindGoalsRequest)
  .output(ZFindGoalsResponse)
  .query(({ ctx, input }) => findGoals(ctx.db, ctx.actor.ownerId, input));
