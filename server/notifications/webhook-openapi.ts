// The outbound notification webhook in the OpenAPI document (OpenAPI 3.1 `webhooks`): what the
// owner's receiver gets, how to verify it, and how deliveries are retried (pinned-wave2 §4.4).
import { MAX_ATTEMPTS } from "./delivery-service";

export const NOTIFICATION_WEBHOOK_OPENAPI = {
  "notification.created": {
    post: {
      operationId: "notificationCreatedWebhook",
      tags: ["Notifications"],
      summary: "A notification was created (sent to the owner's notification webhook)",
      // Authenticated by its signature (X-Service-Signature), not by a scheme of this API.
      security: [],
      description:
        "POSTed to the URL set with PUT /v1/me/notification-webhook for every notification whose severity reaches the " +
        "webhook channel's min_severity (and whose code is not muted). The body is fixed when the notification is " +
        "created: every attempt sends the same bytes with the same X-Service-Event-Id, so a receiver dedupes on it.\n\n" +
        "**Verifying.** X-Service-Signature is `sha256=` and the hex HMAC-SHA256, keyed with the webhook's secret " +
        "(whsec_…, as answered by PUT), of `<X-Service-Timestamp>.<raw body>`. Compute it over the raw bytes before " +
        "parsing, compare in constant time, and refuse a timestamp more than 5 minutes from your clock. Unlike the " +
        "inbound webhooks, the timestamp is part of the signed string.\n\n" +
        "**Delivery.** Any 2xx is delivered. Anything else fails the attempt: http_<status>, redirect_refused (3xx: " +
        "redirects are never followed), timeout (10 s), address_refused, dns_failed, connection_failed or tls_failed. " +
        `A failed attempt is retried 1 m, 5 m, 30 m, 2 h, 6 h and 12 h later (${MAX_ATTEMPTS} attempts in all). ` +
        "Each attempt is appended to the notification's delivered list. Removing or disabling the webhook drops " +
        "the remaining attempts.",
      parameters: [
        {
          name: "X-Service-Timestamp",
          in: "header",
          required: true,
          description: "Unix time (seconds) of this attempt; part of the signed string.",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
        {
          name: "X-Service-Signature",
          in: "header",
          required: true,
          description: "sha256=<hex HMAC-SHA256(secret, `<timestamp>.<raw body>`)>.",
          schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
        },
        {
          name: "X-Service-Event-Id",
          in: "header",
          required: true,
          description: "The event id (the body's id), the same on every attempt: the dedupe key.",
          schema: { type: "string", format: "uuid" },
        },
      ],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["id", "type", "created_at", "data"],
              additionalProperties: false,
              properties: {
                id: { type: "string", format: "uuid", description: "The event id (X-Service-Event-Id)." },
                type: { type: "string", const: "notification.created" },
                created_at: { type: "string", format: "date-time", description: "The notification's created_at." },
                data: { $ref: "#/components/schemas/Notification" },
              },
            },
          },
        },
      },
      responses: {
        "200": { description: "Any 2xx status marks the attempt delivered; the response body is ignored." },
      },
    },
  },
} as const;
