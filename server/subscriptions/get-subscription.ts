import { ownerProcedure } from "../trpc/init";
import { getSubscription } from "./subscription-service";
import { getSubscriptionMeta, ZGetSubscriptionRequest, ZGetSubscriptionResponse } from "./get-subscription.types";

export const getSubscriptionRoute = ownerProcedure
  .meta(getSubscriptionMeta)
  .input(ZGetSubscriptionRequest)
  .output(ZGetSubscriptionResponse)
  .query(async ({ ctx, input }) => ({ data: await getSubscription(ctx.db, ctx.actor.ownerId, input.id) }));
