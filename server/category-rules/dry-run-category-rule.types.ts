import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { DRY_RUN_MAX_EVENTS, ZCategoryRuleDryRun, ZDryRunCategoryRuleInput } from "./category-rule.schema";

export const dryRunCategoryRuleMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/category-rules/dry-run",
    tags: ["Category rules"],
    summary: "Dry-run a category rule",
    description:
      "Writes nothing: how many of the owner's existing confirmed events (the newest " +
      `${DRY_RUN_MAX_EVENTS}) the rule matches, and how many it would change — those without a category, as rules never ` +
      "replace a category — with a few examples. The same validation as create (400 naming pattern; another owner's " +
      "project: 404). Additive (issue 14).",
  },
};
export const ZDryRunCategoryRuleRequest = ZDryRunCategoryRuleInput;
export const ZDryRunCategoryRuleResponse = z.object({ data: ZCategoryRuleDryRun });
