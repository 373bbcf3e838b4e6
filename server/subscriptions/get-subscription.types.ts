import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSubscription } from "./subscription.schema";

export const getSubscriptionMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/subscriptions/{id}", tags: ["Subscriptions"], summary: "Get a subscription" },
};
export const ZGetSubscriptionRequest = ZIdParam;
export const ZGetSubscriptionResponse = z.object({ data: ZSubscription });
