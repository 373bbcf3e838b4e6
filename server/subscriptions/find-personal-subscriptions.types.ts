import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSubscription } from "./subscription.schema";

export const findPersonalSubscriptionsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/personal/subscriptions",
    tags: ["Subscriptions"],
    summary: "List personal subscriptions",
    description: "The owner's personal subscriptions (personal: true), newest first.",
  },
};
export const ZFindPersonalSubscriptionsRequest = ZPageQuery;
export const ZFindPersonalSubscriptionsResponse = ZListOf(ZSubscription);
