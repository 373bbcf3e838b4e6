import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZSubscription, ZSubscriptionFilters } from "./subscription.schema";

export const findSubscriptionsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/subscriptions",
    tags: ["Subscriptions"],
    summary: "List subscriptions",
    description:
      "All the owner's subscriptions, newest first. Filters: business_id (includes its projects'), project_id, personal, status, " +
      "currency, source_type. base_amount_minor and fx use today's current rate.",
  },
};
export const ZFindSubscriptionsRequest = ZPageQuery.extend(ZSubscriptionFilters.shape);
export const ZFindSubscriptionsResponse = ZListOf(ZSubscription);
