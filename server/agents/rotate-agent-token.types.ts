import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgentWithToken, ZRotateTokenInput } from "./agent.schema";

export const rotateAgentTokenMeta: TProcedureMeta = {
  secretInResponse: true,
  openapi: {
    method: "POST",
    path: "/v1/agents/{id}/rotate-token",
    tags: ["Agents"],
    summary: "Replace an agent's token",
    description: "The old token stops working at once (it answers 401 token_revoked); the new one is shown only here.",
  },
  experimental: true,
};
export const ZRotateAgentTokenRequest = ZIdParam.extend(ZRotateTokenInput.shape);
export const ZRotateAgentTokenResponse = z.object({ data: ZAgentWithToken });
