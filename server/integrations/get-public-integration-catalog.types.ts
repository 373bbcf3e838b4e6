import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCatalogEntry } from "./integration.schema";

export const getPublicIntegrationCatalogMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/public/integrations",
    tags: ["Integrations"],
    summary: "The integration catalog (public)",
    description:
      "Every provider the service can connect, with its kind, availability (available or coming_soon), how it connects, " +
      "its webhook path and signature header. No authentication; a bearer, if sent, must be valid.",
  },
};
export const ZGetPublicIntegrationCatalogRequest = z.object({});
export const ZGetPublicIntegrationCatalogResponse = z.object({ data: z.array(ZCatalogEntry) });
