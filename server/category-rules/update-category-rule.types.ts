import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCategoryRule, ZUpdateCategoryRuleFields } from "./category-rule.schema";

export const updateCategoryRuleMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/category-rules/{id}",
    tags: ["Category rules"],
    summary: "Update a category rule",
    description:
      "Changes the fields sent; the pattern is checked against the operator the rule will have. project_id null removes the " +
      "project. Another owner's rule or project: 404 not_found. Audited (category_rule.updated). Additive (issue 14).",
  },
};
export const ZUpdateCategoryRuleRequest = ZIdParam.extend(ZUpdateCategoryRuleFields.shape);
export const ZUpdateCategoryRuleResponse = z.object({ data: ZCategoryRule });
