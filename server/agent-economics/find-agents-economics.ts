import { callerOf } from "../auth/caller";
import { readOwnerDay } from "../read-models/period";
import { ownerOrAgentProcedure } from "../trpc/init";
import { findAgentsEconomics } from "./economics-service";
import {
  findAgentsEconomicsMeta,
  ZFindAgentsEconomicsRequest,
  ZFindAgentsEconomicsResponse,
} from "./find-agents-economics.types";

// Any live agent passes the meta's rule (no scope needed): the service keeps it to itself.
export const findAgentsEconomicsRoute = ownerOrAgentProcedure()
  .meta(findAgentsEconomicsMeta)
  .input(ZFindAgentsEconomicsRequest)
  .output(ZFindAgentsEconomicsResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    return findAgentsEconomics(ctx.db, { caller: callerOf(ctx), day, query: input, operation: path });
  });
