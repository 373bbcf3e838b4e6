import { ownerProcedure } from "../trpc/init";
import { getImport } from "./import-read";
import { getImportMeta, ZGetImportRequest, ZGetImportResponse } from "./get-import.types";

export const getImportRoute = ownerProcedure
  .meta(getImportMeta)
  .input(ZGetImportRequest)
  .output(ZGetImportResponse)
  .query(async ({ ctx, input }) => ({ data: await getImport(ctx.db, ctx.actor.ownerId, input.id, input.offset) }));
