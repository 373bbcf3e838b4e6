import { ownerProcedure } from "../trpc/init";
import { findRecentAlerts } from "./alert-service";
import { ZFindRecentAlertsRequest, ZFindRecentAlertsResponse } from "./find-recent-alerts.types";

export const findRecentAlertsRoute = ownerProcedure
  .input(ZFindRecentAlertsRequest)
  .output(ZFindRecentAlertsResponse)
  .query(async ({ ctx, input }) => ({ data: await findRecentAlerts(ctx.db, ctx.actor.ownerId, { limit: input.limit }) }));
