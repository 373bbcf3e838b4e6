import { callerOf } from "../auth/caller";
import { readOwnerDay } from "../read-models/period";
import { ownerOrAgentProcedure } from "../trpc/init";
import { getMyEconomics } from "./economics-service";
import { getMyEconomicsMeta, ZGetMyEconomicsRequest, ZGetMyEconomicsResponse } from "./get-my-economics.types";

// The owner passes the meta's rule too, and gets the service's 404.
export const getMyEconomicsRoute = ownerOrAgentProcedure()
  .meta(getMyEconomicsMeta)
  .input(ZGetMyEconomicsRequest)
  .output(ZGetMyEconomicsResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    return getMyEconomics(ctx.db, { caller: callerOf(ctx), day, query: input, operation: path });
  });
