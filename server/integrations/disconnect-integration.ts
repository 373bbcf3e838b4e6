import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { disconnectIntegration } from "./integration-service";
import {
  disconnectIntegrationMeta,
  ZDisconnectIntegrationRequest,
  ZDisconnectIntegrationResponse,
} from "./disconnect-integration.types";

export const disconnectIntegrationRoute = ownerProcedure
  .meta(disconnectIntegrationMeta)
  .input(ZDisconnectIntegrationRequest)
  .output(ZDisconnectIntegrationResponse)
  .mutation(async ({ ctx, input }) => ({ data: await disconnectIntegration(ctx.db, callerOf(ctx), input.id) }));
