import { ownerProcedure } from "../trpc/init";
import { getCapacity } from "./subscription-service";
import {
  getSubscriptionCapacityMeta,
  ZGetSubscriptionCapacityRequest,
  ZGetSubscriptionCapacityResponse,
} from "./get-subscription-capacity.types";

export const getSubscriptionCapacityRoute = ownerProcedure
  .meta(getSubscriptionCapacityMeta)
  .input(ZGetSubscriptionCapacityRequest)
  .output(ZGetSubscriptionCapacityResponse)
  .query(async ({ ctx, input }) => ({ data: await getCapacity(ctx.db, ctx.actor.ownerId, input.id) }));
