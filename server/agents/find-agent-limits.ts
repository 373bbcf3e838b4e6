import { ownerProcedure } from "../trpc/init";
import { findAgentLimits } from "./agent-me-service";
import { ZFindAgentLimitsRequest, ZFindAgentLimitsResponse } from "./find-agent-limits.types";

export const findAgentLimitsRoute = ownerProcedure
  .input(ZFindAgentLimitsRequest)
  .output(ZFindAgentLimitsResponse)
  .query(async ({ ctx, input }) => ({ data: await findAgentLimits(ctx.db, ctx.actor.ownerId, input.id, ctx.clock.now()) }));
