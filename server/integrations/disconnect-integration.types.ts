import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZIntegration } from "./integration.schema";

export const disconnectIntegrationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/integrations/{id}/disconnect",
    tags: ["Integrations"],
    summary: "Disconnect an integration",
    description:
      "Status becomes disconnected: its webhooks are refused from now on (401, as for an unknown integration or account), " +
      "a sync answers 409 state_conflict, and its signing secret and provider credentials are wiped. Its events, signals " +
      "and alerts are kept. Connecting the same provider account again (POST /v1/integrations/{provider}/connect) brings " +
      "it back. Already disconnected, or the statement import's own integration (manual_import): 409 state_conflict. " +
      "Another owner's: 404. Audited (integration.disconnected). Additive (issue 14).",
  },
};
export const ZDisconnectIntegrationRequest = ZIdParam;
export const ZDisconnectIntegrationResponse = z.object({ data: ZIntegration });
