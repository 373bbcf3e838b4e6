import { ownerProcedure } from "../trpc/init";
import { findImports } from "./import-list";
import { findImportsMeta, ZFindImportsRequest, ZFindImportsResponse } from "./find-imports.types";

export const findImportsRoute = ownerProcedure
  .meta(findImportsMeta)
  .input(ZFindImportsRequest)
  .output(ZFindImportsResponse)
  .query(({ ctx, input }) => findImports(ctx.db, ctx.actor.ownerId, input));
