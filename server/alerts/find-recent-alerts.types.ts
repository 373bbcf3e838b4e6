// Panel only: no `openapi` meta, so this procedure is not part of /v1 (the REST route table and
// the OpenAPI document list only procedures that declare one).
import { z } from "zod";
import { ZAlert } from "../integrations/integration.schema";
import { RECENT_ALERTS_MAX } from "./alert-service";

export const ZFindRecentAlertsRequest = z.object({
  limit: z.number().int().min(1).max(RECENT_ALERTS_MAX).optional(),
});
export const ZFindRecentAlertsResponse = z.object({ data: z.array(ZAlert) });
