import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { OWNER_SCOPE } from "./scope";
import { getAds } from "./ads";
import { getAdsMeta, ZGetAdsRequest, ZGetAdsResponse } from "./get-ads.types";
import { readOwnerDay, resolvePeriod } from "./period";

export const getAdsRoute = ownerOrAgentProcedure({ anyOf: ["ads", "finances:observe"] })
  .meta(getAdsMeta)
  .input(ZGetAdsRequest)
  .output(ZGetAdsResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    // The whole owner: an agent's ads or finances:observe grant on `*` (pinned-wave3 §2.1).
    await authorizeRead(readCaller(ctx, path), ["ads", "finances:observe"], OWNER_SCOPE);
    return getAds(ctx.db, day, { kind: "owner" }, { ...period, displayCurrency: input.display_currency });
  });
