import { router } from "../trpc/init";
import { getBusinessForecastRoute } from "./get-business-forecast";
import { getCoverageRoute } from "./get-coverage";
import { getForecastRoute } from "./get-forecast";
import { getFreeCapitalRoute } from "./get-free-capital";
import { getPersonalForecastRoute } from "./get-personal-forecast";

export const readModelsRouter = router({
  coverage: getCoverageRoute,
  businessForecast: getBusinessForecastRoute,
  personalForecast: getPersonalForecastRoute,
  forecast: getForecastRoute,
  freeCapital: getFreeCapitalRoute,
});
