import { z } from "zod";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { IMPORT_TX_OPTIONS, ZCreateImportResult, ZPreviewImportInput } from "./import.schema";

export const previewImportMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/imports/{id}/preview",
    tags: ["Imports"],
    summary: "Preview an import again with another mapping",
    description:
      "Additive (issue 14). Reads the uploaded file again, without a new upload, with mapping (columns to fields, date and " +
      "number formats; omitted: the last preview's effective mapping) and currency_default (omitted: the last preview's), " +
      "and answers the new preview in the shape of POST /v1/imports. Nothing is written to the ledger: the import's rows, " +
      "summary and proposals are replaced, and the confirm then writes these rows (its mapping must be this one). The file " +
      "is kept until expires_at, which does not move: after it, or once confirmed, 409 state_conflict (upload it again). " +
      "A mapping naming a column the header lacks answers 400 with the header. Another owner's import answers 404. " +
      "preset (additive) reads the file with another preset from now on, e.g. preview.suggested_preset.",
  },
  successStatus: 200,
  transaction: IMPORT_TX_OPTIONS,
};
export const ZPreviewImportRequest = ZPreviewImportInput.extend({ id: ZUuid });
export const ZPreviewImportResponse = z.object({ data: ZCreateImportResult });
