import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { revertImport } from "./import-revert";
import { revertImportMeta, ZRevertImportRequest, ZRevertImportResponse } from "./revert-import.types";

export const revertImportRoute = ownerProcedure
  .meta(revertImportMeta)
  .input(ZRevertImportRequest)
  .output(ZRevertImportResponse)
  .mutation(async ({ ctx, input }) => ({ data: await revertImport(ctx.db, callerOf(ctx), input.id) }));
