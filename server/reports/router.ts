import { router } from "../trpc/init";
import { getCashHistoryRoute } from "./get-cash-history";
import { getProfitAndLossRoute } from "./get-profit-and-loss";

export const reportsRouter = router({
  profitAndLoss: getProfitAndLossRoute,
  cashHistory: getCashHistoryRoute,
});
