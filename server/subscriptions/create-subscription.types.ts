import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateSubscriptionInput, ZSubscription } from "./subscription.schema";

export const createSubscriptionMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/subscriptions",
    tags: ["Subscriptions"],
    summary: "Create a subscription",
    description:
      "A recurring cost of a business, one of its projects, or personal (exactly one of business_id, project_id, personal: true). " +
      "Created active, source_type MANUAL, confidence 1, with no allocations and no capacity. amount_minor is the cost per " +
      "billing_interval (an integer ≥ 0). A currency the rate source does not cover answers 422 currency_unsupported and writes nothing.",
  },
  successStatus: 201,
};
export const ZCreateSubscriptionRequest = ZCreateSubscriptionInput;
export const ZCreateSubscriptionResponse = z.object({ data: ZSubscription });
