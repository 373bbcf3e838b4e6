import { router } from "../trpc/init";
import { getBusinessFinancialSummaryRoute } from "./get-business-financial-summary";
import { getCoverageRoute } from "./get-coverage";
import { getPersonalFinancialSummaryRoute } from "./get-personal-financial-summary";

export const readModelsRouter = router({
  coverage: getCoverageRoute,
  businessFinancialSummary: getBusinessFinancialSummaryRoute,
  personalFinancialSummary: getPersonalFinancialSummaryRoute,
});
