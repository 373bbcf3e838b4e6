import { ownerProcedure } from "../trpc/init";
import { findAuditEntries } from "./audit-service";
import { findAuditEntriesMeta, ZFindAuditEntriesRequest, ZFindAuditEntriesResponse } from "./find-audit-entries.types";

export const findAuditEntriesRoute = ownerProcedure
  .meta(findAuditEntriesMeta)
  .input(ZFindAuditEntriesRequest)
  .output(ZFindAuditEntriesResponse)
  .query(({ ctx, input }) => findAuditEntries(ctx.db, ctx.actor.ownerId, input));
