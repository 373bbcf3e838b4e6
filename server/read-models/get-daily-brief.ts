import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { OWNER_SCOPE } from "./scope";
import { getDailyBrief } from "./daily-brief";
import { getDailyBriefMeta, ZGetDailyBriefRequest, ZGetDailyBriefResponse } from "./get-daily-brief.types";

export const getDailyBriefRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getDailyBriefMeta)
  .input(ZGetDailyBriefRequest)
  .output(ZGetDailyBriefResponse)
  .query(async ({ ctx, input, path }) => {
    // The whole owner: an agent's finances:observe grant on `*` (pinned-wave3 §2.1).
    await authorizeRead(readCaller(ctx, path), "finances:observe", OWNER_SCOPE);
    return getDailyBrief(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, query: input });
  });
