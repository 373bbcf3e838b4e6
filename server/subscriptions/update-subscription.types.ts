import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSubscription, ZUpdateSubscriptionInput } from "./subscription.schema";

export const updateSubscriptionMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/subscriptions/{id}",
    tags: ["Subscriptions"],
    summary: "Update a subscription",
    description:
      "Changes the given fields. The scope is fixed at creation. status moves between active and paused; cancelled is final: " +
      "any change to a cancelled subscription answers 409 state_conflict.",
  },
};
export const ZUpdateSubscriptionRequest = ZIdParam.extend(ZUpdateSubscriptionInput.shape);
export const ZUpdateSubscriptionResponse = z.object({ data: ZSubscription });
