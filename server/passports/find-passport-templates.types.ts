import { z } from "zod";
import { ZPage } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPassportTemplate } from "./passport.schema";

export const findPassportTemplatesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/passport-templates",
    tags: ["Agents"],
    summary: "Passport templates",
    description:
      "The built-in templates, all on one page (page.has_more false): bookkeeper, ads_optimizer, forecaster, " +
      "cash_guardian. Each holds a passport to start from and the grants such an agent usually needs " +
      "(suggested_grants: a Grant without its resource). Applying one (POST /v1/agents/{id}/passport/from-template) " +
      "fills the passport and never grants: the owner grants with PATCH /v1/agents/{id} or by approving a permission " +
      "request. Owner only.",
  },
};
export const ZFindPassportTemplatesRequest = z.object({});
export const ZFindPassportTemplatesResponse = z.object({ data: z.array(ZPassportTemplate), page: ZPage });
