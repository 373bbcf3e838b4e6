import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSyncInput, ZSyncResult } from "./integration.schema";

export const syncIntegrationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/integrations/{provider}/sync",
    tags: ["Integrations"],
    summary: "Sync a provider",
    description:
      "Mock in this version: the provider's sample of the last three days (UTC) goes through the ingest path, as its " +
      "webhooks would deliver it (payments_a: charges, a refund linked to its charge, a payout_paid signal; social_ads and " +
      "search_ads: daily ad_spend per campaign; billing_a and billing_b: subscription_change events; a bank provider: " +
      "balances as cash snapshots and transactions as events). External ids derive from the integration and the day, so " +
      "a second sync the same day dedupes everything. Answers the ingest counts; last_sync_at is updated. integration_id " +
      "names the connection; without it the owner's only connection of the provider is synced (none: 404; several: 400). " +
      "A pending integration (OAuth not finished) and the providers without anything to fetch (generic, manual_import) " +
      "answer 409 state_conflict. The contract leaves the access of this endpoint open; it requires the owner's bearer.",
  },
  planExpiry: "exempt",
};
export const ZSyncIntegrationRequest = ZSyncInput.extend({
  provider: z.string().max(64).describe("A provider of GET /v1/integrations/catalog."),
});
export const ZSyncIntegrationResponse = z.object({ data: ZSyncResult });
