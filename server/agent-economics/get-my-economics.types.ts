import type { TProcedureMeta } from "../trpc/meta";
import { ECONOMICS_RULES, ZAgentEconomicsResponse, ZEconomicsQuery } from "./agent-economics.schema";

export const getMyEconomicsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/agents/me/economics",
    tags: ["Agents"],
    summary: "The calling agent's economics",
    description:
      "GET /v1/agents/{id}/economics for the calling agent (the literal me is never taken for an id). The owner is not an " +
      "agent: 404 not_found (GET /v1/agents/economics lists every agent). No scope needed. " +
      ECONOMICS_RULES,
  },
  experimental: true,
};
export const ZGetMyEconomicsRequest = ZEconomicsQuery;
export const ZGetMyEconomicsResponse = ZAgentEconomicsResponse;
