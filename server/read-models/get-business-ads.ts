import { ownerProcedure } from "../trpc/init";
import { getAds } from "./ads";
import { getBusinessAdsMeta, ZGetBusinessAdsRequest, ZGetBusinessAdsResponse } from "./get-business-ads.types";
import { readOwnerDay, resolvePeriod } from "./period";
import { resolveBusinessScope } from "./scope";

export const getBusinessAdsRoute = ownerProcedure
  .meta(getBusinessAdsMeta)
  .input(ZGetBusinessAdsRequest)
  .output(ZGetBusinessAdsResponse)
  .query(async ({ ctx, input }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    const scope = await resolveBusinessScope(ctx.db, ctx.actor.ownerId, input.id);
    return getAds(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
