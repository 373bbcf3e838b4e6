import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPutAllocationsInput, ZSubscription } from "./subscription.schema";

export const putSubscriptionAllocationsMeta: TProcedureMeta = {
  openapi: {
    method: "PUT",
    path: "/v1/subscriptions/{id}/allocations",
    tags: ["Subscriptions"],
    summary: "Replace a subscription's allocations",
    description:
      "Replaces the whole list. Each share_bps is an integer 1–10000, each project at most once and a project of the " +
      "subscription's business (else 400 validation_error naming allocations.N.project_id); the shares must sum to exactly " +
      "10000 (else 422 allocation_sum_invalid; nothing changes). An empty list clears the allocations. A personal subscription " +
      "has no business, so a non-empty list answers 409 state_conflict, as does a cancelled subscription. The answer is the " +
      "subscription; each allocation shows its amount_minor: the amount split by largest remainder (each share rounded down, " +
      "the minor units left over go one each to the largest remainders, ties in list order), so the parts sum exactly to the whole.",
  },
};
export const ZPutSubscriptionAllocationsRequest = ZIdParam.extend(ZPutAllocationsInput.shape);
export const ZPutSubscriptionAllocationsResponse = z.object({ data: ZSubscription });
