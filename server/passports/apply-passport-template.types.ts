import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { PASSPORT_RULES } from "./get-passport.types";
import { ZPassport, ZPassportFields, ZSuggestedGrant } from "./passport.schema";
import { PASSPORT_TEMPLATE_IDS } from "./passport-templates";

export const applyPassportTemplateMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/agents/{id}/passport/from-template",
    tags: ["Agents"],
    summary: "Fill an agent's passport from a template",
    description:
      `${PASSPORT_RULES} Sets the passport to the template's, each field given in overrides replacing the template's ` +
      "whole (constraints too, its omitted keys at their defaults); version + 1, template_id the template's; audited " +
      "(agent.passport_updated, details { template_id, version }). Answers 200 { passport, suggested_grants }: the " +
      "template's grants without a resource, an execute grant carrying the passport's max_daily_spend_minor as its " +
      "daily limit. Nothing is granted: the owner grants with PATCH /v1/agents/{id} or by approving a permission " +
      "request. An unknown template_id answers 400; overrides are checked as PUT's body (400, 404 for a business " +
      "not the owner's); a revoked agent 409 state_conflict. Owner only.",
  },
  experimental: true,
};
export const ZApplyPassportTemplateRequest = ZIdParam.extend({
  template_id: z
    .string()
    .refine((id) => PASSPORT_TEMPLATE_IDS.includes(id), { message: `must be one of ${PASSPORT_TEMPLATE_IDS.join(", ")}` })
    .describe(`The template: ${PASSPORT_TEMPLATE_IDS.join(", ")} (GET /v1/passport-templates).`),
  overrides: ZPassportFields.optional().describe("Fields that replace the template's."),
});
export const ZApplyPassportTemplateResponse = z.object({
  data: z.object({ passport: ZPassport, suggested_grants: z.array(ZSuggestedGrant) }),
});
