import { ownerProcedure } from "../trpc/init";
import { findIntegrationsMeta, ZFindIntegrationsRequest, ZFindIntegrationsResponse } from "./find-integrations.types";
import { findIntegrations } from "./integration-service";

export const findIntegrationsRoute = ownerProcedure
  .meta(findIntegrationsMeta)
  .input(ZFindIntegrationsRequest)
  .output(ZFindIntegrationsResponse)
  .query(({ ctx, input }) => findIntegrations(ctx.db, ctx.actor.ownerId, input));
