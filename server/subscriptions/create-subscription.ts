import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createSubscription } from "./subscription-service";
import { createSubscriptionMeta, ZCreateSubscriptionRequest, ZCreateSubscriptionResponse } from "./create-subscription.types";

export const createSubscriptionRoute = ownerProcedure
  .meta(createSubscriptionMeta)
  .input(ZCreateSubscriptionRequest)
  .output(ZCreateSubscriptionResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createSubscription(ctx.db, callerOf(ctx), input) }));
