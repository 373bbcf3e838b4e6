import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCategoryRule, MAX_RULES_PER_OWNER } from "./category-rule.schema";

export const findCategoryRulesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/category-rules",
    tags: ["Category rules"],
    summary: "List category rules",
    description:
      `All of the owner's rules (at most ${MAX_RULES_PER_OWNER}) in the order they run: priority, then created_at, then id. ` +
      "Imported rows (at preview) and ingested events that have no category get the category of the first rule that " +
      "matches; a row that has one keeps it. Additive (issue 14).",
  },
};
export const ZFindCategoryRulesRequest = z.object({});
export const ZFindCategoryRulesResponse = z.object({ data: z.array(ZCategoryRule) });
