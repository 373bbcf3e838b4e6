import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { connectIntegrationMeta, ZConnectIntegrationRequest, ZConnectIntegrationResponse } from "./connect-integration.types";
import { connectIntegration } from "./integration-service";

export const connectIntegrationRoute = ownerProcedure
  .meta(connectIntegrationMeta)
  .input(ZConnectIntegrationRequest)
  .output(ZConnectIntegrationResponse)
  .mutation(async ({ ctx, input: { provider, ...body } }) => ({
    data: await connectIntegration(ctx.db, callerOf(ctx), provider, body),
  }));
