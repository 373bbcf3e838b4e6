import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCapacity } from "./subscription.schema";

export const getSubscriptionCapacityMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/subscriptions/{id}/capacity",
    tags: ["Subscriptions"],
    summary: "Get a subscription's capacity",
    description: "{ data: null } when no capacity was set; 404 only when the subscription does not exist.",
  },
};
export const ZGetSubscriptionCapacityRequest = ZIdParam;
export const ZGetSubscriptionCapacityResponse = z.object({ data: ZCapacity.nullable() });
