import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  connectGenericIntegrationMeta,
  ZConnectGenericIntegrationRequest,
  ZConnectGenericIntegrationResponse,
} from "./connect-generic-integration.types";
import { connectGenericIntegration } from "./integration-service";

export const connectGenericIntegrationRoute = ownerProcedure
  .meta(connectGenericIntegrationMeta)
  .input(ZConnectGenericIntegrationRequest)
  .output(ZConnectGenericIntegrationResponse)
  .mutation(async ({ ctx, input }) => ({ data: await connectGenericIntegration(ctx.db, callerOf(ctx), input) }));
