// Panel only: no `openapi` meta, so this procedure is not part of /v1 (the REST route table and
// the OpenAPI document list only procedures that declare one). The agent page shows an agent's
// limits used today and this month, as GET /v1/agents/me tells the agent itself.
import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import { ZGrantWithUsage } from "./agent-me.schema";

export const ZFindAgentLimitsRequest = ZIdParam;
export const ZFindAgentLimitsResponse = z.object({ data: z.array(ZGrantWithUsage) });
