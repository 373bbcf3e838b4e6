import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCapacity, ZPutCapacityInput } from "./subscription.schema";

export const putSubscriptionCapacityMeta: TProcedureMeta = {
  openapi: {
    method: "PUT",
    path: "/v1/subscriptions/{id}/capacity",
    tags: ["Subscriptions"],
    summary: "Set a subscription's capacity",
    description:
      "Sets what the subscription buys (unit, total) and how much is used (integers ≥ 0). used above total answers 422 " +
      "capacity_exceeded and changes nothing. The answer adds available (total − used) and utilization (used / total, 0 to 1).",
  },
};
export const ZPutSubscriptionCapacityRequest = ZIdParam.extend(ZPutCapacityInput.shape);
export const ZPutSubscriptionCapacityResponse = z.object({ data: ZCapacity });
