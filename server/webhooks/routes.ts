// The webhook receivers as plain routes (raw body, signature instead of a bearer) in the one
// REST layer: POST /v1/webhooks/generic/{integration_id}, POST /v1/webhooks/{provider} and the
// social_ads subscription check GET /v1/webhooks/social_ads. The rules are in webhook-service.ts.
import { z } from "zod";
import { ZIntegrationSignal, ZNormalizedEvent } from "../ingest/ingest.schema";
import { INGEST_SOURCE_TYPES, WEBHOOK_PROVIDERS } from "../sources/providers";
import { envelopeOutcome } from "../rest/outcome";
import type { TPlainRoute } from "../rest/plain-route";
import { ZUuid } from "../shared/schemas";
import { WEBHOOK_PROVIDER_MODULES } from "./providers";
import { SERVICE_SIGNATURE_HEADER, SERVICE_TIMESTAMP_HEADER } from "./providers/search-ads";
import {
  GENERIC_MAX_ITEMS,
  receiveGenericDelivery,
  receiveProviderDelivery,
  verifySocialAdsSubscription,
} from "./webhook-service";
import { envelopeSchema, ZGenericWebhookResult, ZWebhookResult } from "./webhook.schema";

const SUCCESS_HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
  "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
};

const ERRORS_NOTE = `Errors: 400 validation_error (not JSON, not an object, or an envelope not of the documented shape: details.issues names each field; a bad item is a rejection, not a 400),
401 unauthenticated (bad or missing signature, timestamp outside the window, unknown integration or account; nothing is written),
413 payload_too_large (over 1 MB), 422 fx_unavailable (no exchange rate at all; nothing is written, retry later).`;

// --- generic ---

export const ZGenericWebhookEvent = z
  .object({
    ...ZNormalizedEvent.shape,
    integration_id: ZUuid.optional().describe("Ignored: always the integration in the path."),
    source_type: z.enum(INGEST_SOURCE_TYPES).optional().describe("Ignored: always IMPORT."),
  })
  .meta({ id: "GenericWebhookEvent", description: "A NormalizedEvent; integration_id and source_type are forced." });

export const ZGenericWebhookSignal = z
  .object({
    ...ZIntegrationSignal.shape,
    integration_id: ZUuid.optional().describe("Ignored: always the integration in the path."),
  })
  .meta({
    id: "GenericWebhookSignal",
    description: "An IntegrationSignal; integration_id is forced. amount_minor and currency go together.",
  });

export const ZGenericWebhookBody = z
  .object({
    events: z.array(ZGenericWebhookEvent).optional(),
    signals: z.array(ZGenericWebhookSignal).optional(),
  })
  .meta({
    id: "GenericWebhookBody",
    description: `At least one of events and signals is non-empty; at most ${GENERIC_MAX_ITEMS} items in total.`,
  });

const genericRoute: TPlainRoute = {
  method: "POST",
  path: "/v1/webhooks/generic/{integration_id}",
  access: { kind: "signature" },
  idempotency: "exempt",
  openapi: {
    operationId: "receiveGenericWebhook",
    summary: "Receive a signed delivery of events and signals (generic integration)",
    tags: ["Webhooks"],
    description: `For an integration with provider generic (POST /v1/integrations/generic/connect returns its id and secret).

Authentication: no bearer. \`X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body with the integration's secret>\`
and \`X-Service-Timestamp: <Unix seconds>\` within 5 minutes of the server's time (either way). The signature covers
the body only, as the contract defines it, so every accepted delivery is remembered (30 days) by its signature: the same
signed body again, whatever its timestamp, is a replay, answered 200 with every item counted as deduped and nothing written.
Checked in this order: integration (an unknown, inactive or non-generic id, a non-UUID id included, answers 401), timestamp,
signature (constant time), then the body. No Idempotency-Key: deduplication is by (integration_id, external_id), so a repeat
comes back counted as deduped.

Every event is stored with source_type IMPORT and the path's integration_id, whatever the body says; signals get the path's
integration_id. Items are checked one by one: a bad one is listed in \`rejected\` (index = an event's position in \`events\`,
or events.length + a signal's position in \`signals\`) and the others are written (200).
A same external_id with another amount is a restatement (the old event voided, a new one \`<external_id>:v<n>\`).

${ERRORS_NOTE}`,
    requestParams: {
      path: z.object({ integration_id: z.string().describe("The generic integration's id (a UUID).") }),
      header: z.object({
        [SERVICE_SIGNATURE_HEADER]: z
          .string()
          .describe("`sha256=<hex HMAC-SHA256 of the raw body with the integration's secret>`.")
          .meta({ example: "sha256=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592" }),
        [SERVICE_TIMESTAMP_HEADER]: z
          .string()
          .describe("Unix seconds when the request was signed; within 5 minutes of the server's time.")
          .meta({ example: "1767225600" }),
      }),
    },
    requestBody: { required: true, content: { "application/json": { schema: ZGenericWebhookBody } } },
    responses: {
      "200": {
        description: "Ingested: counts of new and repeated items, and the events refused one by one.",
        headers: SUCCESS_HEADERS,
        content: { "application/json": { schema: envelopeSchema(ZGenericWebhookResult, "GenericWebhookResponse") } },
      },
    },
  },
  handle: async ({ getDb, params, req, rawBody, requestId }) => {
    const result = await receiveGenericDelivery(await getDb(), params.integration_id!, {
      headers: req.headers,
      rawBody,
      requestId,
      contentType: req.headers.get("content-type"),
    });
    return envelopeOutcome(200, { data: result });
  },
};

// --- providers ---

const providerHeaders = () => {
  const shape: Record<string, z.ZodOptional<z.ZodString>> = {};
  for (const module of Object.values(WEBHOOK_PROVIDER_MODULES))
    for (const [name, description] of Object.entries(module.headers)) {
      const previous = shape[name]?.description;
      shape[name] = z
        .string()
        .optional()
        .describe(previous && previous !== description ? `${previous} ${description}` : description);
    }
  return z.object(shape);
};

const providerRoute: TPlainRoute = {
  method: "POST",
  path: "/v1/webhooks/{provider}",
  access: { kind: "signature" },
  idempotency: "exempt",
  openapi: {
    operationId: "receiveProviderWebhook",
    summary: "Receive a platform's signed webhook delivery",
    tags: ["Webhooks"],
    description: `Deliveries of the connected platforms: ${WEBHOOK_PROVIDERS.join(", ")} (another value answers 404 not_found).
Each platform signs the raw body with its own header scheme (the header parameters below; docs/webhooks.md has signing
examples). Timestamped schemes allow 5 minutes either way. No bearer and no Idempotency-Key: items are deduplicated by
external_id, and every accepted delivery is remembered (30 days) by its signature, so the same signed request again is
answered 200 with everything deduped and writes nothing.

Which secret: payments_a, social_ads, billing_a and billing_b sign with the account's signing secret, given on connect
(POST /v1/integrations/{provider}/connect, signing_secret). A delivery is for the active connections of the accounts it
names whose secret verifies it: several owners may name one account, and only those whose secret verifies receive it
(two holders of the true secret both do). Every account the delivery names needs such a connection, else 401 and nothing
is written; the 401 is the same for an account nobody connected and for a wrong secret. The server's
WEBHOOK_SECRET_<PROVIDER> verifies only a connection without a secret of its own (made before connect asked for one), and
only when the server runs with AUTH_MODE=static (development, tests); in session mode it verifies nothing, and it never
verifies a connection that has its own secret. search_ads' relay signs with the server's WEBHOOK_SECRET_SEARCH_ADS (unset:
401). The accounts are read from the body before the signature is checked (a body that is not a JSON object naming one is
401); the rest of the body is validated only after. A delivery naming accounts of several owners is written in one
transaction.
Events of types the service does not read are acknowledged (200) and counted in \`ignored\`. Financial items refused one by
one are listed in \`rejected\` (index: the item's position as docs/webhooks.md defines it per platform).

Mappings: payments_a charges → revenue, refunds → refund linked to the charge (direction out), failed charges, disputes and
payouts → signals (source PAYMENTS_API); social_ads daily spend per campaign/ad set/ad → ad_spend (a changed figure for the
same day is a restatement), status changes → signals (SOCIAL_ADS_API); search_ads relay report rows → ad_spend, alerts →
signals (SEARCH_ADS_API); billing_a and billing_b subscriptions → subscription_change events whose amount_minor is the MRR
change (payload: change new|expansion|contraction|churn|reactivation, mrr_minor, previous_mrr_minor), past due and
cancellations → signals, failed payments → payment_failed (PAYMENTS_API). billing_a computes MRR from prices:
annual ÷ 12 in integer minor units with the remainder (0–11) kept in payload.mrr_remainder_minor, never rounded;
billing_b sends MRR as it computes it.

${ERRORS_NOTE}`,
    requestParams: {
      path: z.object({ provider: z.enum(WEBHOOK_PROVIDERS).describe("The platform.") }),
      header: providerHeaders(),
    },
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .union(Object.values(WEBHOOK_PROVIDER_MODULES).map((m) => m.schema) as [z.ZodType, z.ZodType, ...z.ZodType[]])
            .meta({ id: "ProviderWebhookPayload", description: "The platform's payload; which one is set by `provider`." }),
        },
      },
    },
    responses: {
      "200": {
        description: "Acknowledged: counts of new, repeated and ignored items, and the items refused one by one.",
        headers: SUCCESS_HEADERS,
        content: { "application/json": { schema: envelopeSchema(ZWebhookResult, "WebhookDeliveryResponse") } },
      },
    },
  },
  handle: async ({ getDb, params, req, rawBody, requestId }) => {
    const result = await receiveProviderDelivery(await getDb(), params.provider!, {
      headers: req.headers,
      rawBody,
      requestId,
      contentType: req.headers.get("content-type"),
    });
    return envelopeOutcome(200, { data: result });
  },
};

// --- social_ads subscription check ---

const socialVerifyRoute: TPlainRoute = {
  method: "GET",
  path: "/v1/webhooks/social_ads",
  access: { kind: "public" },
  openapi: {
    operationId: "verifySocialAdsWebhook",
    summary: "Answer social_ads' subscription check (hub.challenge)",
    tags: ["Webhooks"],
    description: `The platform calls this once when the webhook is subscribed. When hub.verify_token equals the server's
SOCIAL_ADS_VERIFY_TOKEN (compared in constant time) and hub.mode is subscribe, the answer is hub.challenge as text/plain.
A wrong or missing token, or no SOCIAL_ADS_VERIFY_TOKEN on the server, answers 401 unauthenticated; a missing challenge or
another mode answers 400 validation_error.`,
    requestParams: {
      query: z.object({
        "hub.mode": z.literal("subscribe"),
        "hub.verify_token": z.string().describe("The verify token configured at the platform and in SOCIAL_ADS_VERIFY_TOKEN."),
        "hub.challenge": z.string().describe("Echoed back; 1 to 256 printable characters."),
      }),
    },
    responses: {
      "200": {
        description: "The challenge, echoed.",
        headers: SUCCESS_HEADERS,
        content: { "text/plain": { schema: { type: "string" } } },
      },
    },
  },
  handle: async ({ query, requestId }) => ({
    status: 200,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    kind: "raw",
    body: verifySocialAdsSubscription(query, requestId),
  }),
};

export const webhookRoutes: TPlainRoute[] = [genericRoute, providerRoute, socialVerifyRoute];
