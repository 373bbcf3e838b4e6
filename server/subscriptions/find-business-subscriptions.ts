import { ownerProcedure } from "../trpc/init";
import { findBusinessSubscriptions } from "./subscription-service";
import {
  findBusinessSubscriptionsMeta,
  ZFindBusinessSubscriptionsRequest,
  ZFindBusinessSubscriptionsResponse,
} from "./find-business-subscriptions.types";

export const findBusinessSubscriptionsRoute = ownerProcedure
  .meta(findBusinessSubscriptionsMeta)
  .input(ZFindBusinessSubscriptionsRequest)
  .output(ZFindBusinessSubscriptionsResponse)
  .query(({ ctx, input: { id, ...query } }) => findBusinessSubscriptions(ctx.db, ctx.actor.ownerId, id, query));
