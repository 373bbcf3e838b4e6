import { router } from "../trpc/init";
import { getCoverageRoute } from "./get-coverage";

export const readModelsRouter = router({
  coverage: getCoverageRoute,
});
