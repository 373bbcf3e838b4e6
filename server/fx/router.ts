import { router } from "../trpc/init";
import { getFxRatesRoute } from "./get-fx-rates";

export const fxRouter = router({ rates: getFxRatesRoute });
