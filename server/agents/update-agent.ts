import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateAgent } from "./agent-service";
import { updateAgentMeta, ZUpdateAgentRequest, ZUpdateAgentResponse } from "./update-agent.types";

export const updateAgentRoute = ownerProcedure
  .meta(updateAgentMeta)
  .input(ZUpdateAgentRequest)
  .output(ZUpdateAgentResponse)
  .mutation(async ({ ctx, input: { id, ...patch } }) => ({ data: await updateAgent(ctx.db, callerOf(ctx), id, patch) }));
