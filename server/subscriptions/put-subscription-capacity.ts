import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { putCapacity } from "./subscription-service";
import {
  putSubscriptionCapacityMeta,
  ZPutSubscriptionCapacityRequest,
  ZPutSubscriptionCapacityResponse,
} from "./put-subscription-capacity.types";

export const putSubscriptionCapacityRoute = ownerProcedure
  .meta(putSubscriptionCapacityMeta)
  .input(ZPutSubscriptionCapacityRequest)
  .output(ZPutSubscriptionCapacityResponse)
  .mutation(async ({ ctx, input: { id, ...capacity } }) => ({
    data: await putCapacity(ctx.db, callerOf(ctx), id, capacity),
  }));
