import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { DRY_RUN_MAX_EVENTS } from "./category-rule.schema";

export const applyCategoryRulesMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/category-rules/apply",
    tags: ["Category rules"],
    summary: "Apply the category rules to existing events",
    description:
      `An explicit action: the owner's rules, in order, give the owner's existing confirmed events (the newest ${DRY_RUN_MAX_EVENTS}) ` +
      "that have no category the category of the first matching rule (and its project, on events of that project's " +
      "business that have none). Amounts, dates and other fields never change; events with a category keep it. One audit " +
      "entry category_rules.applied with the count. Additive (issue 14).",
  },
};
export const ZApplyCategoryRulesRequest = z.object({});
export const ZApplyCategoryRulesResponse = z.object({
  data: z.object({
    updated: z.number().int().describe("Events that got a category."),
    scanned: z.number().int(),
    truncated: z.boolean(),
  }),
});
