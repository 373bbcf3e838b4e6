import type { TProcedureMeta } from "../trpc/meta";
import { ECONOMICS_RULES, ZAgentsEconomicsResponse, ZEconomicsQuery } from "./agent-economics.schema";

export const findAgentsEconomicsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/agents/economics",
    tags: ["Agents"],
    summary: "Every agent's economics",
    description:
      "Per agent, over the period: its writes by approval status and its denials, the money its executed writes committed, " +
      "its ad budget changes, the events attributed to it and what its decisions produced, with totals. The owner sees " +
      "every agent of theirs, newest first; an agent sees a list holding only itself. No scope needed. " +
      ECONOMICS_RULES,
  },
  experimental: true,
};
export const ZFindAgentsEconomicsRequest = ZEconomicsQuery;
export const ZFindAgentsEconomicsResponse = ZAgentsEconomicsResponse;
