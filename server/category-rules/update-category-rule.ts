import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateCategoryRule } from "./category-rule-service";
import { updateCategoryRuleMeta, ZUpdateCategoryRuleRequest, ZUpdateCategoryRuleResponse } from "./update-category-rule.types";

export const updateCategoryRuleRoute = ownerProcedure
  .meta(updateCategoryRuleMeta)
  .input(ZUpdateCategoryRuleRequest)
  .output(ZUpdateCategoryRuleResponse)
  .mutation(async ({ ctx, input: { id, ...patch } }) => ({ data: await updateCategoryRule(ctx.db, callerOf(ctx), id, patch) }));
