import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { ZFindOwnerGoalsRequest, ZFindOwnerGoalsResponse } from "./find-owner-goals.types";
import { findOwnerGoals } from "./goal-service";

export const findOwnerGoalsRoute = ownerProcedure
  .input(ZFindOwnerGoalsRequest)
  .output(ZFindOwnerGoalsResponse)
  .query(({ ctx, input }) => findOwnerGoals(ctx.db, callerOf(ctx), input));
