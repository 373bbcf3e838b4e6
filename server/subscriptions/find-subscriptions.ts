import { ownerProcedure } from "../trpc/init";
import { findSubscriptions } from "./subscription-service";
import { findSubscriptionsMeta, ZFindSubscriptionsRequest, ZFindSubscriptionsResponse } from "./find-subscriptions.types";

export const findSubscriptionsRoute = ownerProcedure
  .meta(findSubscriptionsMeta)
  .input(ZFindSubscriptionsRequest)
  .output(ZFindSubscriptionsResponse)
  .query(({ ctx, input }) => findSubscriptions(ctx.db, ctx.actor.ownerId, input));
