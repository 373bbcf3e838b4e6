import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createRevenueMeta, ZCreateRevenueRequest, ZCreateRevenueResponse } from "./create-revenue.types";
import { createManualEvent } from "./ledger-service";

export const createRevenueRoute = ownerProcedure
  .meta(createRevenueMeta)
  .input(ZCreateRevenueRequest)
  .output(ZCreateRevenueResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createManualEvent(ctx.db, callerOf(ctx), "revenue", input) }));
