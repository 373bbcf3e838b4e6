import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { rotateAgentToken } from "./agent-service";
import { rotateAgentTokenMeta, ZRotateAgentTokenRequest, ZRotateAgentTokenResponse } from "./rotate-agent-token.types";

export const rotateAgentTokenRoute = ownerProcedure
  .meta(rotateAgentTokenMeta)
  .input(ZRotateAgentTokenRequest)
  .output(ZRotateAgentTokenResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await rotateAgentToken(ctx.db, callerOf(ctx), id, body) }));
