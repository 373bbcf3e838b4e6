import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZConnectInput, ZConnectResult } from "./integration.schema";

export const connectIntegrationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/integrations/{provider}/connect",
    tags: ["Integrations"],
    summary: "Connect a provider",
    description:
      "payments_a, social_ads, billing_a and billing_b: records the connection of the provider account account_id " +
      "(required: its deliveries name it) with the account's signing_secret (required: the secret the platform signs " +
      "the account's deliveries with, shown where CatalogEntry.signing_secret_location says), status active. Holding " +
      "the secret is what proves control of the account: several owners may name the same account id, and a delivery " +
      "reaches only the connections whose secret verifies it, so naming an account another owner named is answered " +
      "like any connect (never a 409 that would tell). The secret is stored encrypted and never answered; replace it " +
      "with PUT /v1/integrations/{id}/signing-secret. An account this owner already connected answers 409 " +
      "state_conflict (the owner's own disconnected one is connected again, with the secret given now, history " +
      "kept). search_ads connects through OAuth: the integration is created pending (account_id required too: the " +
      "customer id its relay's deliveries name; signing_secret is refused, the relay signs with the server's secret; " +
      "a customer id connected by another owner answers 409) and authorize_url is where the owner grants access; the " +
      "platform then redirects to GET /v1/integrations/search_ads/callback, which activates it. bank_provider_a and " +
      "bank_provider_b are coming soon and manual_import is created by the first statement import: both answer 409 " +
      "state_conflict. generic connects with POST /v1/integrations/generic/connect. Missing fields are named together " +
      "(400 validation_error, details.issues). An unknown provider answers 404, another owner's business 404. The " +
      "contract leaves the access of this endpoint open; it requires the owner's bearer, because integrations belong to " +
      "an owner.",
  },
  successStatus: 201,
  planLimit: "integrations",
};
export const ZConnectIntegrationRequest = ZConnectInput.extend({
  provider: z.string().max(64).describe("A provider of GET /v1/integrations/catalog."),
})
  // account_id stays optional in zod so that a provider that cannot be connected answers its 404 or 409
  // first; every provider this operation connects requires it (400 naming account_id), and the
  // document says so. signing_secret is required by four of them only (the service checks it).
  .meta({ required: ["business_id", "account_id"] });
export const ZConnectIntegrationResponse = z.object({ data: ZConnectResult });
