import { ownerProcedure } from "../trpc/init";
import {
  getIntegrationCatalogMeta,
  ZGetIntegrationCatalogRequest,
  ZGetIntegrationCatalogResponse,
} from "./get-integration-catalog.types";
import { ownerCatalog } from "./integration-service";

export const getIntegrationCatalogRoute = ownerProcedure
  .meta(getIntegrationCatalogMeta)
  .input(ZGetIntegrationCatalogRequest)
  .output(ZGetIntegrationCatalogResponse)
  .query(async ({ ctx }) => ({ data: await ownerCatalog(ctx.db, ctx.actor.ownerId) }));
