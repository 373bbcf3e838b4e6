import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZBusiness, ZFindBusinessesQuery } from "./business.schema";

export const findBusinessesMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/businesses", tags: ["Businesses"], summary: "List businesses" },
};
export const ZFindBusinessesRequest = ZFindBusinessesQuery;
export const ZFindBusinessesResponse = ZListOf(ZBusiness);
