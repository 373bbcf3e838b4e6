import { ZListOf, ZPageQuery } from "../shared/pagination";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZIntegration, ZProvider } from "./integration.schema";

export const findIntegrationsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/integrations",
    tags: ["Integrations"],
    summary: "List the owner's integrations",
    description:
      "The owner's connections (provider accounts, generic webhooks, bank providers, the statement import), newest first " +
      "(created_at desc, id desc), with status (pending: OAuth not finished; active; disconnected) and last_sync_at. " +
      "Optional filters: provider, business_id. Secrets and credentials are never part of an integration. The contract " +
      "leaves the access of this endpoint open; it requires the owner's bearer, because integrations belong to an owner.",
  },
};
export const ZFindIntegrationsRequest = ZPageQuery.extend({
  provider: ZProvider.optional().describe("Only this provider's connections."),
  business_id: ZUuid.optional().describe("Only connections whose events land in this business."),
});
export const ZFindIntegrationsResponse = ZListOf(ZIntegration);
