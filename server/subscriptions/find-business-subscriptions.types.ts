import { ZListOf, ZPageQuery } from "../shared/pagination";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSubscription } from "./subscription.schema";

export const findBusinessSubscriptionsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/subscriptions",
    tags: ["Subscriptions"],
    summary: "List a business's subscriptions",
    description: "The subscriptions of the business and of its projects, newest first.",
  },
};
export const ZFindBusinessSubscriptionsRequest = ZIdParam.extend(ZPageQuery.shape);
export const ZFindBusinessSubscriptionsResponse = ZListOf(ZSubscription);
