import { ownerProcedure } from "../trpc/init";
import { dryRunCategoryRule } from "./category-rule-service";
import { dryRunCategoryRuleMeta, ZDryRunCategoryRuleRequest, ZDryRunCategoryRuleResponse } from "./dry-run-category-rule.types";

export const dryRunCategoryRuleRoute = ownerProcedure
  .meta(dryRunCategoryRuleMeta)
  .input(ZDryRunCategoryRuleRequest)
  .output(ZDryRunCategoryRuleResponse)
  .mutation(async ({ ctx, input }) => ({ data: await dryRunCategoryRule(ctx.db, ctx.actor.ownerId, input) }));
