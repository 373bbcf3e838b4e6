import { z } from "zod";
import { ZUuid, zQueryNumber } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZImport } from "./import.schema";

export const getImportMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/imports/{id}",
    tags: ["Imports"],
    summary: "Get an import: status, summary and rows by offset",
    description:
      "status is previewed (confirmable until expires_at), expired (a preview past expires_at: upload it again) or " +
      "confirmed (result holds the confirm's answer). rows are 500 rows from offset (default 0) in file order; " +
      "page.next_offset is the offset of the next 500, null on the last page. Another owner's import answers 404.",
  },
};
export const ZGetImportRequest = z.object({
  id: ZUuid,
  offset: zQueryNumber().int().min(0).max(10_000_000).default(0).describe("The first row to answer (0-based)."),
});
export const ZGetImportResponse = z.object({ data: ZImport });
