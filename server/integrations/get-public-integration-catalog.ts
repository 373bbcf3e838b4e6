import { publicProcedure } from "../trpc/init";
import {
  getPublicIntegrationCatalogMeta,
  ZGetPublicIntegrationCatalogRequest,
  ZGetPublicIntegrationCatalogResponse,
} from "./get-public-integration-catalog.types";
import { publicCatalog } from "./integration-service";

export const getPublicIntegrationCatalogRoute = publicProcedure
  .meta(getPublicIntegrationCatalogMeta)
  .input(ZGetPublicIntegrationCatalogRequest)
  .output(ZGetPublicIntegrationCatalogResponse)
  .query(() => ({ data: publicCatalog() }));
