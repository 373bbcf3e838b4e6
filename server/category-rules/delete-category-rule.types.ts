import { z } from "zod";
import { ZIdParam, ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";

export const deleteCategoryRuleMeta: TProcedureMeta = {
  openapi: {
    method: "DELETE",
    path: "/v1/category-rules/{id}",
    tags: ["Category rules"],
    summary: "Delete a category rule",
    description:
      "Events it categorised keep their category. Another owner's rule: 404 not_found. Audited (category_rule.deleted, " +
      "with the rule). Additive (issue 14).",
  },
};
export const ZDeleteCategoryRuleRequest = ZIdParam;
export const ZDeleteCategoryRuleResponse = z.object({ data: z.object({ id: ZUuid, deleted: z.literal(true) }) });
