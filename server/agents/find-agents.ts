import { ownerProcedure } from "../trpc/init";
import { findAgents } from "./agent-service";
import { findAgentsMeta, ZFindAgentsRequest, ZFindAgentsResponse } from "./find-agents.types";

export const findAgentsRoute = ownerProcedure
  .meta(findAgentsMeta)
  .input(ZFindAgentsRequest)
  .output(ZFindAgentsResponse)
  .query(({ ctx, input }) => findAgents(ctx.db, ctx.actor.ownerId, input));
