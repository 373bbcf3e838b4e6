import { callerOf } from "../auth/caller";
import { readOwnerDay } from "../read-models/period";
import { ownerOrAgentProcedure } from "../trpc/init";
import { getAgentEconomics } from "./economics-service";
import { getAgentEconomicsMeta, ZGetAgentEconomicsRequest, ZGetAgentEconomicsResponse } from "./get-agent-economics.types";

// Any live agent passes the meta's rule; only the agent itself gets past the service.
export const getAgentEconomicsRoute = ownerOrAgentProcedure()
  .meta(getAgentEconomicsMeta)
  .input(ZGetAgentEconomicsRequest)
  .output(ZGetAgentEconomicsResponse)
  .query(async ({ ctx, input, path }) => {
    const { id, ...query } = input;
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    return getAgentEconomics(ctx.db, { caller: callerOf(ctx), day, query, operation: path }, id);
  });
