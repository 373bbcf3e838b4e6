import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZOwnerCatalogEntry } from "./integration.schema";

export const getIntegrationCatalogMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/integrations/catalog",
    tags: ["Integrations"],
    summary: "The integration catalog, with the owner's connections",
    description:
      "Every provider: its kind, availability (available or coming_soon), how it connects (account: POST " +
      "/v1/integrations/{provider}/connect with account_id and, for a webhook platform, the signing secret its " +
      "signing_secret_location names; oauth: the same call answers an authorize_url; secret: POST " +
      "/v1/integrations/generic/connect; internal: created by the service, e.g. manual_import on the first statement " +
      "import), where its webhooks go and which header signs them, and how many of the owner's connections are active " +
      "(connected) or waiting for authorization (pending). The contract leaves the access of this endpoint open; it " +
      "requires the owner's bearer because the counts belong to an owner. GET /v1/public/integrations is the same list " +
      "without the counts and without a bearer.",
  },
};
export const ZGetIntegrationCatalogRequest = z.object({});
export const ZGetIntegrationCatalogResponse = z.object({ data: z.array(ZOwnerCatalogEntry) });
