import type { TProcedureMeta } from "../trpc/meta";
import { ADS_RULES, ZAdsQuery, ZAdsResponse } from "./ads.schema";

export const getAdsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/ads",
    tags: ["Read models"],
    summary: "Ad spend of every business, per account and campaign",
    description:
      "The whole owner: every business's ad accounts, each with its business_id. Owner only (an agent answers 403 " +
      "scope_denied). " +
      ADS_RULES,
  },
};
export const ZGetAdsRequest = ZAdsQuery;
export const ZGetAdsResponse = ZAdsResponse;
