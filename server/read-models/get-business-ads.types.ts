import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ADS_RULES, ZAdsQuery, ZAdsResponse } from "./ads.schema";

export const getBusinessAdsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/ads",
    tags: ["Read models"],
    summary: "A business's ad spend, per account and campaign",
    description:
      "GET /v1/ads filtered to the business (its projects included): the same shape. Another owner's or an unknown " +
      "business answers 404. Owner only (an agent answers 403 scope_denied). " +
      ADS_RULES,
  },
};
export const ZGetBusinessAdsRequest = ZAdsQuery.extend({ id: ZUuid });
export const ZGetBusinessAdsResponse = ZAdsResponse;
