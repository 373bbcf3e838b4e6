import { ownerProcedure } from "../trpc/init";
import { findEventTotalsMeta, ZFindEventTotalsRequest, ZFindEventTotalsResponse } from "./find-event-totals.types";
import { findEventTotals } from "./ledger-service";

export const findEventTotalsRoute = ownerProcedure
  .meta(findEventTotalsMeta)
  .input(ZFindEventTotalsRequest)
  .output(ZFindEventTotalsResponse)
  .query(async ({ ctx, input }) => ({ data: await findEventTotals(ctx.db, ctx.actor.ownerId, input) }));
