import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgent, ZUpdateAgentInput } from "./agent.schema";

export const updateAgentMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/agents/{id}",
    tags: ["Agents"],
    summary: "Update an agent",
    description:
      "Rename, suspend or reactivate, replace the grants (a grant of the same scope, resource and currency as an old one keeps what was spent today and this month; others start at zero) or the allowed IP ranges. A revoked agent answers 409 state_conflict.",
  },
  experimental: true,
};
export const ZUpdateAgentRequest = ZIdParam.extend(ZUpdateAgentInput.shape);
export const ZUpdateAgentResponse = z.object({ data: ZAgent });
