import { router } from "../trpc/init";
import { findAgentsEconomicsRoute } from "./find-agents-economics";
import { getAgentEconomicsRoute } from "./get-agent-economics";
import { getMyEconomicsRoute } from "./get-my-economics";

// Literal paths first (pinned-wave2 §1.1): agents/economics and agents/me/economics are never agents/{id}.
export const agentEconomicsRouter = router({
  find: findAgentsEconomicsRoute,
  getMine: getMyEconomicsRoute,
  get: getAgentEconomicsRoute,
});
