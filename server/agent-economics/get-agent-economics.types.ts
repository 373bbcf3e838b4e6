import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ECONOMICS_RULES, ZAgentEconomicsResponse, ZEconomicsQuery } from "./agent-economics.schema";

export const getAgentEconomicsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/agents/{id}/economics",
    tags: ["Agents"],
    summary: "One agent's economics",
    description:
      "The AgentEconomics of one agent over the period. The owner may read any agent of theirs; an agent only itself: " +
      "another agent of the owner answers 403 scope_denied (details.required own_record, audited); an unknown agent or " +
      "another owner's 404. No scope needed. " +
      ECONOMICS_RULES,
  },
  experimental: true,
};
export const ZGetAgentEconomicsRequest = ZEconomicsQuery.extend({ id: ZUuid });
export const ZGetAgentEconomicsResponse = ZAgentEconomicsResponse;
