import { readOwnerDay } from "../read-models/period";
import { ownerProcedure } from "../trpc/init";
import {
  findDecisionOutcomesMeta,
  ZFindDecisionOutcomesRequest,
  ZFindDecisionOutcomesResponse,
} from "./find-decision-outcomes.types";
import { findDecisionOutcomes } from "./outcome-service";

export const findDecisionOutcomesRoute = ownerProcedure
  .meta(findDecisionOutcomesMeta)
  .input(ZFindDecisionOutcomesRequest)
  .output(ZFindDecisionOutcomesResponse)
  .query(async ({ ctx, input }) => findDecisionOutcomes(ctx.db, await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock), input));
