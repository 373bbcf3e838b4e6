import { ownerProcedure } from "../trpc/init";
import { getAds } from "./ads";
import { getBusinessAdsMeta, ZGetBusinessAdsRequest, ZGetBusinessAdsResponse } from "./get-business-ads.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";

export const getBusinessAdsRoute = ownerProcedure
  .meta(getBusinessAdsMeta)
  .input(ZGetBusinessAdsRequest)
  .output(ZGetBusinessAdsResponse)
  .query(async ({ ctx, input }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    return getAds(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
