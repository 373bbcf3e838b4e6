import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { applyCategoryRules } from "./category-rule-service";
import { applyCategoryRulesMeta, ZApplyCategoryRulesRequest, ZApplyCategoryRulesResponse } from "./apply-category-rules.types";

export const applyCategoryRulesRoute = ownerProcedure
  .meta(applyCategoryRulesMeta)
  .input(ZApplyCategoryRulesRequest)
  .output(ZApplyCategoryRulesResponse)
  .mutation(async ({ ctx }) => ({ data: await applyCategoryRules(ctx.db, callerOf(ctx)) }));
