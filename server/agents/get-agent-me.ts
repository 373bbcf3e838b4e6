import { ownerOrAgentProcedure } from "../trpc/init";
import { describeCaller } from "./agent-me-service";
import { getAgentMeMeta, ZGetAgentMeRequest, ZGetAgentMeResponse } from "./get-agent-me.types";

// The contract marks it O; pinned-wave2 §6.3 opens it to agents too (it is how they learn their grants).
export const getAgentMeRoute = ownerOrAgentProcedure()
  .meta(getAgentMeMeta)
  .input(ZGetAgentMeRequest)
  .output(ZGetAgentMeResponse)
  .query(async ({ ctx, input }) => ({ data: await describeCaller(ctx.db, ctx.actor, input, ctx.clock.now()) }));
