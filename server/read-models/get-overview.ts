import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { OWNER_SCOPE } from "./scope";
import { getOverviewMeta, ZGetOverviewRequest, ZGetOverviewResponse } from "./get-overview.types";
import { getOverview } from "./overview";

export const getOverviewRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getOverviewMeta)
  .input(ZGetOverviewRequest)
  .output(ZGetOverviewResponse)
  .query(async ({ ctx, input, path }) => {
    // The whole owner: an agent's finances:observe grant on `*` (pinned-wave3 §2.1).
    await authorizeRead(readCaller(ctx, path), "finances:observe", OWNER_SCOPE);
    return getOverview(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, query: input });
  });
