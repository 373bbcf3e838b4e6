import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { syncIntegration } from "./integration-service";
import { syncIntegrationMeta, ZSyncIntegrationRequest, ZSyncIntegrationResponse } from "./sync-integration.types";

export const syncIntegrationRoute = ownerProcedure
  .meta(syncIntegrationMeta)
  .input(ZSyncIntegrationRequest)
  .output(ZSyncIntegrationResponse)
  .mutation(async ({ ctx, input: { provider, ...body } }) => ({
    data: await syncIntegration(ctx.db, callerOf(ctx), provider, body),
  }));
