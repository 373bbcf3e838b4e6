import { ownerProcedure } from "../trpc/init";
import { getOverviewMeta, ZGetOverviewRequest, ZGetOverviewResponse } from "./get-overview.types";
import { getOverview } from "./overview";

export const getOverviewRoute = ownerProcedure
  .meta(getOverviewMeta)
  .input(ZGetOverviewRequest)
  .output(ZGetOverviewResponse)
  .query(({ ctx, input }) => getOverview(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, query: input }));
