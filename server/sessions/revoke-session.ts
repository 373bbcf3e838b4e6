import { ownerProcedure } from "../trpc/init";
import { revokeSessionMeta, ZRevokeSessionRequest, ZRevokeSessionResponse } from "./revoke-session.types";
import { revokeSession } from "./session-service";

export const revokeSessionRoute = ownerProcedure
  .meta(revokeSessionMeta)
  .input(ZRevokeSessionRequest)
  .output(ZRevokeSessionResponse)
  .mutation(async ({ ctx, input }) => ({ data: await revokeSession(ctx.db, ctx.actor, input.id, ctx.requestId) }));
