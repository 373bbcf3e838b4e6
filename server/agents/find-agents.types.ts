import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgent } from "./agent.schema";

export const findAgentsMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/agents", tags: ["Agents"], summary: "List agents" },
};
export const ZFindAgentsRequest = ZPageQuery;
export const ZFindAgentsResponse = ZListOf(ZAgent);
