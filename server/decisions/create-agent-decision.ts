import { callerOf } from "../auth/caller";
import { ownerOrAgentProcedure } from "../trpc/init";
import {
  createAgentDecisionMeta,
  ZCreateAgentDecisionRequest,
  ZCreateAgentDecisionResponse,
} from "./create-agent-decision.types";
import { createAgentDecision } from "./decision-service";

// Any live agent passes the meta's rule; the grant covering the decision's scope is checked in the service.
export const createAgentDecisionRoute = ownerOrAgentProcedure()
  .meta(createAgentDecisionMeta)
  .input(ZCreateAgentDecisionRequest)
  .output(ZCreateAgentDecisionResponse)
  .mutation(async ({ ctx, input, path }) => ({ data: await createAgentDecision(ctx.db, callerOf(ctx), input, path) }));
