import { ownerProcedure } from "../trpc/init";
import { getAgent } from "./agent-service";
import { getAgentMeta, ZGetAgentRequest, ZGetAgentResponse } from "./get-agent.types";

export const getAgentRoute = ownerProcedure
  .meta(getAgentMeta)
  .input(ZGetAgentRequest)
  .output(ZGetAgentResponse)
  .query(async ({ ctx, input }) => ({ data: await getAgent(ctx.db, ctx.actor.ownerId, input.id) }));
