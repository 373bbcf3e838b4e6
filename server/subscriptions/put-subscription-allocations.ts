import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { putAllocations } from "./subscription-service";
import {
  putSubscriptionAllocationsMeta,
  ZPutSubscriptionAllocationsRequest,
  ZPutSubscriptionAllocationsResponse,
} from "./put-subscription-allocations.types";

export const putSubscriptionAllocationsRoute = ownerProcedure
  .meta(putSubscriptionAllocationsMeta)
  .input(ZPutSubscriptionAllocationsRequest)
  .output(ZPutSubscriptionAllocationsResponse)
  .mutation(async ({ ctx, input: { id, allocations } }) => ({
    data: await putAllocations(ctx.db, callerOf(ctx), id, { allocations }),
  }));
