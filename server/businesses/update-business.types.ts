import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZBusiness, ZUpdateBusinessInput } from "./business.schema";

export const updateBusinessMeta: TProcedureMeta = {
  openapi: { method: "PATCH", path: "/v1/businesses/{id}", tags: ["Businesses"], summary: "Update a business" },
};
export const ZUpdateBusinessRequest = ZIdParam.extend(ZUpdateBusinessInput.shape);
export const ZUpdateBusinessResponse = z.object({ data: ZBusiness });
