import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgentWithToken, ZCreateAgentInput } from "./agent.schema";

export const createAgentMeta: TProcedureMeta = {
  secretInResponse: true,
  openapi: {
    method: "POST",
    path: "/v1/agents",
    tags: ["Agents"],
    summary: "Create an agent",
    description:
      "Answers the agent with its token (agt_…), shown only here and on rotate. Tokens last 90 days unless token_expires_at says otherwise.",
  },
  successStatus: 201,
  planLimit: "agents",
};
export const ZCreateAgentRequest = ZCreateAgentInput;
export const ZCreateAgentResponse = z.object({ data: ZAgentWithToken });
