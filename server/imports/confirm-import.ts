import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { confirmImport } from "./import-confirm";
import { confirmImportMeta, ZConfirmImportRequest, ZConfirmImportResponse } from "./confirm-import.types";

export const confirmImportRoute = ownerProcedure
  .meta(confirmImportMeta)
  .input(ZConfirmImportRequest)
  .output(ZConfirmImportResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await confirmImport(ctx.db, callerOf(ctx), id, body) }));
