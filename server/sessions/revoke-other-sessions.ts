import { ownerProcedure } from "../trpc/init";
import {
  revokeOtherSessionsMeta,
  ZRevokeOtherSessionsRequest,
  ZRevokeOtherSessionsResponse,
} from "./revoke-other-sessions.types";
import { revokeOtherSessions } from "./session-service";

export const revokeOtherSessionsRoute = ownerProcedure
  .meta(revokeOtherSessionsMeta)
  .input(ZRevokeOtherSessionsRequest)
  .output(ZRevokeOtherSessionsResponse)
  .mutation(async ({ ctx }) => ({ data: await revokeOtherSessions(ctx.db, ctx.actor, ctx.requestId) }));
