import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgent } from "./agent.schema";

export const getAgentMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/agents/{id}", tags: ["Agents"], summary: "Get an agent" },
  experimental: true,
};
export const ZGetAgentRequest = ZIdParam;
export const ZGetAgentResponse = z.object({ data: ZAgent });
