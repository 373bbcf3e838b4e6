import { z } from "zod";
import { ZListOf, ZPageQuery } from "../shared/pagination";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { IMPORT_STATUSES, ZImportListItem } from "./import.schema";

export const findImportsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/imports",
    tags: ["Imports"],
    summary: "List imports",
    description:
      "Additive (issue 32). The owner's statement imports, newest first (created_at, then id), cursor-paginated. Each " +
      "with its status (previewed, expired, confirmed, reverted) and counts: for a confirmed or reverted import what the " +
      "confirm wrote (inserted, deduped, reconciled, rejected), for a preview what confirming would write. Filters: " +
      "business_id, status. The rows and the full summary: GET /v1/imports/{id}.",
  },
};
export const ZFindImportsRequest = ZPageQuery.extend({
  business_id: ZUuid.optional(),
  status: z.enum(IMPORT_STATUSES).optional(),
});
export const ZFindImportsResponse = ZListOf(ZImportListItem);
