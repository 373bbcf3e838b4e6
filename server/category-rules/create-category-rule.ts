import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createCategoryRule } from "./category-rule-service";
import { createCategoryRuleMeta, ZCreateCategoryRuleRequest, ZCreateCategoryRuleResponse } from "./create-category-rule.types";

export const createCategoryRuleRoute = ownerProcedure
  .meta(createCategoryRuleMeta)
  .input(ZCreateCategoryRuleRequest)
  .output(ZCreateCategoryRuleResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createCategoryRule(ctx.db, callerOf(ctx), input) }));
