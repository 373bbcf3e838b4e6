import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getAds } from "./ads";
import { getBusinessAdsMeta, ZGetBusinessAdsRequest, ZGetBusinessAdsResponse } from "./get-business-ads.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";

export const getBusinessAdsRoute = ownerOrAgentProcedure({ anyOf: ["ads", "finances:observe"] })
  .meta(getBusinessAdsMeta)
  .input(ZGetBusinessAdsRequest)
  .output(ZGetBusinessAdsResponse)
  .query(async ({ ctx, input, path }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    await authorizeRead(readCaller(ctx, path), ["ads", "finances:observe"], scope);
    return getAds(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
