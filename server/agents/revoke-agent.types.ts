import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgent } from "./agent.schema";

export const revokeAgentMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/agents/{id}/revoke",
    tags: ["Agents"],
    summary: "Revoke an agent",
    description: "For good: its tokens answer 401 token_revoked. Revoking again answers 409 state_conflict.",
  },
  experimental: true,
  planExpiry: "exempt",
};
export const ZRevokeAgentRequest = ZIdParam;
export const ZRevokeAgentResponse = z.object({ data: ZAgent });
