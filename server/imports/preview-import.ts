import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { repreviewImport } from "./import-repreview";
import { previewImportMeta, ZPreviewImportRequest, ZPreviewImportResponse } from "./preview-import.types";

export const previewImportRoute = ownerProcedure
  .meta(previewImportMeta)
  .input(ZPreviewImportRequest)
  .output(ZPreviewImportResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await repreviewImport(ctx.db, callerOf(ctx), id, body) }));
