import { router } from "../trpc/init";
import { createAdBudgetChangeRoute } from "./create-ad-budget-change";

export const adBudgetChangesRouter = router({ create: createAdBudgetChangeRoute });
