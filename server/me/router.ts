import { router } from "../trpc/init";
import { getMeRoute } from "./get-me";
import { previewBaseCurrencyRoute } from "./preview-base-currency";
import { updateMeRoute } from "./update-me";

export const meRouter = router({ get: getMeRoute, update: updateMeRoute, previewBaseCurrency: previewBaseCurrencyRoute });
