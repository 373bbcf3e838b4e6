import { ownerOrAgentProcedure, requireCallerGrant } from "../trpc/init";
import { findBusinessSubscriptions } from "./subscription-service";
import {
  findBusinessSubscriptionsMeta,
  ZFindBusinessSubscriptionsRequest,
  ZFindBusinessSubscriptionsResponse,
} from "./find-business-subscriptions.types";

export const findBusinessSubscriptionsRoute = ownerOrAgentProcedure("finances:observe")
  .meta(findBusinessSubscriptionsMeta)
  .input(ZFindBusinessSubscriptionsRequest)
  .output(ZFindBusinessSubscriptionsResponse)
  .query(({ ctx, input: { id, ...query }, path }) =>
    findBusinessSubscriptions(ctx.db, ctx.actor.ownerId, id, query, (businessId) =>
      // pinned-wave3 §2.1: an agent whose finances:observe grant covers the business (after its 404).
      requireCallerGrant(ctx, path, "finances:observe", { kind: "business", businessId }),
    ),
  );
