import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateSubscription } from "./subscription-service";
import { updateSubscriptionMeta, ZUpdateSubscriptionRequest, ZUpdateSubscriptionResponse } from "./update-subscription.types";

export const updateSubscriptionRoute = ownerProcedure
  .meta(updateSubscriptionMeta)
  .input(ZUpdateSubscriptionRequest)
  .output(ZUpdateSubscriptionResponse)
  .mutation(async ({ ctx, input: { id, ...patch } }) => ({
    data: await updateSubscription(ctx.db, callerOf(ctx), id, patch),
  }));
