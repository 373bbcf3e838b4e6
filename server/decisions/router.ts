import { router } from "../trpc/init";
import { createAgentDecisionRoute } from "./create-agent-decision";
import { findDecisionOutcomesRoute } from "./find-decision-outcomes";
import { getDecisionReviewRoute } from "./get-decision-review";

export const decisionsRouter = router({
  create: createAgentDecisionRoute,
  findOutcomes: findDecisionOutcomesRoute,
  review: getDecisionReviewRoute,
});
