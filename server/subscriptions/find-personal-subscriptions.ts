import { ownerProcedure } from "../trpc/init";
import { findPersonalSubscriptions } from "./subscription-service";
import {
  findPersonalSubscriptionsMeta,
  ZFindPersonalSubscriptionsRequest,
  ZFindPersonalSubscriptionsResponse,
} from "./find-personal-subscriptions.types";

export const findPersonalSubscriptionsRoute = ownerProcedure
  .meta(findPersonalSubscriptionsMeta)
  .input(ZFindPersonalSubscriptionsRequest)
  .output(ZFindPersonalSubscriptionsResponse)
  .query(({ ctx, input }) => findPersonalSubscriptions(ctx.db, ctx.actor.ownerId, input));
