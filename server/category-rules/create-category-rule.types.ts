import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { MAX_RULES_PER_OWNER, ZCategoryRule, ZCreateCategoryRuleInput } from "./category-rule.schema";

export const createCategoryRuleMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/category-rules",
    tags: ["Category rules"],
    summary: "Create a category rule",
    description:
      "A pattern that is not a valid RE2 expression (regex), empty or longer than 200 characters: 400 naming pattern. " +
      `A project_id that is not one of the owner's projects: 404 not_found. More than ${MAX_RULES_PER_OWNER} rules: ` +
      "409 state_conflict. Audited (category_rule.created). Additive (issue 14).",
  },
  successStatus: 201,
};
export const ZCreateCategoryRuleRequest = ZCreateCategoryRuleInput;
export const ZCreateCategoryRuleResponse = z.object({ data: ZCategoryRule });
