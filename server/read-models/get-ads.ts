import { ownerProcedure } from "../trpc/init";
import { getAds } from "./ads";
import { getAdsMeta, ZGetAdsRequest, ZGetAdsResponse } from "./get-ads.types";
import { readOwnerDay, resolvePeriod } from "./period";

export const getAdsRoute = ownerProcedure
  .meta(getAdsMeta)
  .input(ZGetAdsRequest)
  .output(ZGetAdsResponse)
  .query(async ({ ctx, input }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    return getAds(ctx.db, day, { kind: "owner" }, { ...period, displayCurrency: input.display_currency });
  });
