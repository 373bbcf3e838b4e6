import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZConnectGenericInput, ZConnectGenericResult } from "./integration.schema";

export const connectGenericIntegrationMeta: TProcedureMeta = {
  secretInResponse: true,
  openapi: {
    method: "POST",
    path: "/v1/integrations/generic/connect",
    tags: ["Integrations"],
    summary: "Connect a generic signed webhook",
    description:
      "Creates an integration of provider generic whose events land in business_id, and answers its integration_id, the " +
      "webhook_url to send deliveries to (POST /v1/webhooks/generic/{integration_id}) and the signing secret (whsec_…). " +
      "The secret is shown only in this answer: it is stored encrypted and never shown again. Sign each delivery with " +
      "X-Service-Signature: sha256=<HMAC-SHA256 of the raw body with the secret> and X-Service-Timestamp. The contract's " +
      "table marks this operation public; it requires the owner's bearer, because an integration belongs to an owner and " +
      "its secret lets events into that owner's books. Another owner's business answers 404.",
  },
  successStatus: 201,
  planLimit: "integrations",
};
export const ZConnectGenericIntegrationRequest = ZConnectGenericInput;
export const ZConnectGenericIntegrationResponse = z.object({ data: ZConnectGenericResult });
