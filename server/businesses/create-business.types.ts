import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZBusiness, ZCreateBusinessInput } from "./business.schema";

export const createBusinessMeta: TProcedureMeta = {
  openapi: { method: "POST", path: "/v1/businesses", tags: ["Businesses"], summary: "Create a business" },
  successStatus: 201,
  planLimit: "businesses",
};
export const ZCreateBusinessRequest = ZCreateBusinessInput;
export const ZCreateBusinessResponse = z.object({ data: ZBusiness });
