import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { revokeAgent } from "./agent-service";
import { revokeAgentMeta, ZRevokeAgentRequest, ZRevokeAgentResponse } from "./revoke-agent.types";

export const revokeAgentRoute = ownerProcedure
  .meta(revokeAgentMeta)
  .input(ZRevokeAgentRequest)
  .output(ZRevokeAgentResponse)
  .mutation(async ({ ctx, input }) => ({ data: await revokeAgent(ctx.db, callerOf(ctx), input.id) }));
