import { router } from "../trpc/init";
import { createAgentRoute } from "./create-agent";
import { findAgentLimitsRoute } from "./find-agent-limits";
import { findAgentsRoute } from "./find-agents";
import { getAgentMeRoute } from "./get-agent-me";
import { getAgentRoute } from "./get-agent";
import { revokeAgentRoute } from "./revoke-agent";
import { rotateAgentTokenRoute } from "./rotate-agent-token";
import { updateAgentRoute } from "./update-agent";

export const agentsRouter = router({
  find: findAgentsRoute,
  create: createAgentRoute,
  // Literal paths before /v1/agents/{id} (the route table ranks them first anyway).
  me: getAgentMeRoute,
  get: getAgentRoute,
  update: updateAgentRoute,
  rotateToken: rotateAgentTokenRoute,
  revoke: revokeAgentRoute,
  /** Panel only (not on /v1): an agent's grants with their limits used today and this month. */
  limits: findAgentLimitsRoute,
});
