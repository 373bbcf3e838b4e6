import { router } from "../trpc/init";
import { applyCategoryRulesRoute } from "./apply-category-rules";
import { createCategoryRuleRoute } from "./create-category-rule";
import { deleteCategoryRuleRoute } from "./delete-category-rule";
import { dryRunCategoryRuleRoute } from "./dry-run-category-rule";
import { findCategoryRulesRoute } from "./find-category-rules";
import { updateCategoryRuleRoute } from "./update-category-rule";

// The literal /v1/category-rules/dry-run and /apply are POSTs; the {id} paths are PATCH and DELETE.
export const categoryRulesRouter = router({
  find: findCategoryRulesRoute,
  create: createCategoryRuleRoute,
  update: updateCategoryRuleRoute,
  delete: deleteCategoryRuleRoute,
  dryRun: dryRunCategoryRuleRoute,
  applyAll: applyCategoryRulesRoute,
});
