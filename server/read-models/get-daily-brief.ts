import { ownerProcedure } from "../trpc/init";
import { getDailyBrief } from "./daily-brief";
import { getDailyBriefMeta, ZGetDailyBriefRequest, ZGetDailyBriefResponse } from "./get-daily-brief.types";

export const getDailyBriefRoute = ownerProcedure
  .meta(getDailyBriefMeta)
  .input(ZGetDailyBriefRequest)
  .output(ZGetDailyBriefResponse)
  .query(({ ctx, input }) => getDailyBrief(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, query: input }));
