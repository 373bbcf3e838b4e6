import { router } from "../trpc/init";
import { getBusinessFinancialSummaryRoute } from "./get-business-financial-summary";
import { getBusinessForecastRoute } from "./get-business-forecast";
import { getCoverageRoute } from "./get-coverage";
import { getForecastRoute } from "./get-forecast";
import { getFreeCapitalRoute } from "./get-free-capital";
import { getOverviewRoute } from "./get-overview";
import { getPersonalFinancialSummaryRoute } from "./get-personal-financial-summary";
import { getPersonalForecastRoute } from "./get-personal-forecast";

export const readModelsRouter = router({
  coverage: getCoverageRoute,
  businessFinancialSummary: getBusinessFinancialSummaryRoute,
  personalFinancialSummary: getPersonalFinancialSummaryRoute,
  businessForecast: getBusinessForecastRoute,
  personalForecast: getPersonalForecastRoute,
  forecast: getForecastRoute,
  freeCapital: getFreeCapitalRoute,
  overview: getOverviewRoute,
});
