import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { deleteCategoryRule } from "./category-rule-service";
import { deleteCategoryRuleMeta, ZDeleteCategoryRuleRequest, ZDeleteCategoryRuleResponse } from "./delete-category-rule.types";

export const deleteCategoryRuleRoute = ownerProcedure
  .meta(deleteCategoryRuleMeta)
  .input(ZDeleteCategoryRuleRequest)
  .output(ZDeleteCategoryRuleResponse)
  .mutation(async ({ ctx, input }) => ({ data: await deleteCategoryRule(ctx.db, callerOf(ctx), input.id) }));
