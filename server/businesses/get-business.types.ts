import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZBusiness } from "./business.schema";

export const getBusinessMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/businesses/{id}", tags: ["Businesses"], summary: "Get a business" },
};
export const ZGetBusinessRequest = ZIdParam;
export const ZGetBusinessResponse = z.object({ data: ZBusiness });
