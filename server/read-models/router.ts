import { router } from "../trpc/init";
import { getAdsRoute } from "./get-ads";
import { getBusinessAdsRoute } from "./get-business-ads";
import { getBusinessContextRoute } from "./get-business-context";
import { getBusinessFinancialSummaryRoute } from "./get-business-financial-summary";
import { getBusinessForecastRoute } from "./get-business-forecast";
import { getBusinessProjectHealthRoute } from "./get-business-project-health";
import { getBusinessSaasMetricsRoute } from "./get-business-saas-metrics";
import { getCoverageRoute } from "./get-coverage";
import { getDailyBriefRoute } from "./get-daily-brief";
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
  ads: getAdsRoute,
  businessAds: getBusinessAdsRoute,
  businessProjectHealth: getBusinessProjectHealthRoute,
  businessContext: getBusinessContextRoute,
  businessSaasMetrics: getBusinessSaasMetricsRoute,
  dailyBrief: getDailyBriefRoute,
});
