import { router } from "../trpc/init";
import { createAgentRoute } from "./create-agent";
import { findAgentsRoute } from "./find-agents";
import { getAgentRoute } from "./get-agent";
import { revokeAgentRoute } from "./revoke-agent";
import { rotateAgentTokenRoute } from "./rotate-agent-token";
import { updateAgentRoute } from "./update-agent";

export const agentsRouter = router({
  find: findAgentsRoute,
  create: createAgentRoute,
  get: getAgentRoute,
  update: updateAgentRoute,
  rotateToken: rotateAgentTokenRoute,
  revoke: revokeAgentRoute,
});
