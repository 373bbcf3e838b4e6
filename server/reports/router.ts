import { router } from "../trpc/init";
import { getProfitAndLossRoute } from "./get-profit-and-loss";

export const reportsRouter = router({
  profitAndLoss: getProfitAndLossRoute,
});
