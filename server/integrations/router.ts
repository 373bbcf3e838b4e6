import { router } from "../trpc/init";
import { connectGenericIntegrationRoute } from "./connect-generic-integration";
import { connectIntegrationRoute } from "./connect-integration";
import { disconnectIntegrationRoute } from "./disconnect-integration";
import { findIntegrationsRoute } from "./find-integrations";
import { getIntegrationCatalogRoute } from "./get-integration-catalog";
import { getPublicIntegrationCatalogRoute } from "./get-public-integration-catalog";
import { replaceSigningSecretRoute } from "./replace-signing-secret";
import { syncIntegrationRoute } from "./sync-integration";

// The literal /v1/integrations/generic/connect wins over /v1/integrations/{provider}/connect in
// the REST layer's route table, whatever the order here.
export const integrationsRouter = router({
  list: findIntegrationsRoute,
  catalog: getIntegrationCatalogRoute,
  publicCatalog: getPublicIntegrationCatalogRoute,
  connectGeneric: connectGenericIntegrationRoute,
  connect: connectIntegrationRoute,
  sync: syncIntegrationRoute,
  disconnect: disconnectIntegrationRoute,
  replaceSigningSecret: replaceSigningSecretRoute,
});
