import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createAgent } from "./agent-service";
import { createAgentMeta, ZCreateAgentRequest, ZCreateAgentResponse } from "./create-agent.types";

export const createAgentRoute = ownerProcedure
  .meta(createAgentMeta)
  .input(ZCreateAgentRequest)
  .output(ZCreateAgentResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createAgent(ctx.db, callerOf(ctx), input) }));
