import { ownerProcedure } from "../trpc/init";
import { findCategoryRules } from "./category-rule-service";
import { findCategoryRulesMeta, ZFindCategoryRulesRequest, ZFindCategoryRulesResponse } from "./find-category-rules.types";

export const findCategoryRulesRoute = ownerProcedure
  .meta(findCategoryRulesMeta)
  .input(ZFindCategoryRulesRequest)
  .output(ZFindCategoryRulesResponse)
  .query(async ({ ctx }) => ({ data: await findCategoryRules(ctx.db, ctx.actor.ownerId) }));
