import { router } from "../trpc/init";
import { connectGenericIntegrationRoute } from "./connect-generic-integration";
import { connectIntegrationRoute } from "./connect-integration";
import { findIntegrationsRoute } from "./find-integrations";
import { getIntegrationCatalogRoute } from "./get-integration-catalog";
import { getPublicIntegrationCatalogRoute } from "./get-public-integration-catalog";
import { syncIntegrationRoute } from "./sync-integration";

// Order matters to the OpenAPI adapter, which takes the first path that matches: the literal
// /v1/integrations/generic/connect is declared before /v1/integrations/{provider}/connect.
export const integrationsRouter = router({
  list: findIntegrationsRoute,
  catalog: getIntegrationCatalogRoute,
  publicCatalog: getPublicIntegrationCatalogRoute,
  connectGeneric: connectGenericIntegrationRoute,
  connect: connectIntegrationRoute,
  sync: syncIntegrationRoute,
});
