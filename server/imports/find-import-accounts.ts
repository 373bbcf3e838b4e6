import { ownerProcedure } from "../trpc/init";
import { findImportAccountsMeta, ZFindImportAccountsRequest, ZFindImportAccountsResponse } from "./find-import-accounts.types";
import { findSavedAccounts } from "./saved-mappings";

export const findImportAccountsRoute = ownerProcedure
  .meta(findImportAccountsMeta)
  .input(ZFindImportAccountsRequest)
  .output(ZFindImportAccountsResponse)
  .query(({ ctx, input }) => findSavedAccounts(ctx.db, ctx.actor.ownerId, { businessId: input.business_id }));
