import { ownerProcedure } from "../trpc/init";
import { findSessionsMeta, ZFindSessionsRequest, ZFindSessionsResponse } from "./find-sessions.types";
import { findSessions } from "./session-service";

export const findSessionsRoute = ownerProcedure
  .meta(findSessionsMeta)
  .input(ZFindSessionsRequest)
  .output(ZFindSessionsResponse)
  .query(({ ctx, input }) => findSessions(ctx.db, ctx.actor, input));
