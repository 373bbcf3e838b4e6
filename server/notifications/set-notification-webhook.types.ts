import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZNotificationWebhookResult, ZSetWebhookInput } from "./notification.schema";

export const setNotificationWebhookMeta: TProcedureMeta = {
  // The answer may carry the signing secret: the idempotency layer stores it encrypted.
  secretInResponse: true,
  openapi: {
    method: "PUT",
    path: "/v1/me/notification-webhook",
    tags: ["Notifications"],
    summary: "Set, change or remove the outbound notification webhook",
    description:
      "Notifications whose severity reaches the webhook channel's min_severity are POSTed to this URL as " +
      "`notification.created` events (see the `webhooks` section of this document for the body, headers and " +
      "signature). The URL must be https, without credentials, and every address its host resolves to must be " +
      "public unicast (no loopback, private, link-local, CGNAT, ULA, unspecified, broadcast, multicast or reserved " +
      "address), unless the host is in the server's OUTBOUND_ALLOW_HOSTS; it is checked again before every attempt, " +
      "and redirects are never followed. A refused URL is 422 webhook_url_invalid with details.rule: not_absolute, " +
      "scheme, credentials, unresolvable or address. The signing secret (whsec_…) is made when the webhook is first " +
      "set (or set again after a removal) and on rotate_secret, and is answered only then; a URL change keeps it. " +
      "url null removes the webhook and drops its queued attempts; enabled false drops them too. Audited " +
      "notification_webhook.updated ({ action: set | removed | rotated, host }).",
  },
  planExpiry: "exempt",
};
export const ZSetNotificationWebhookRequest = ZSetWebhookInput;
export const ZSetNotificationWebhookResponse = z.object({ data: ZNotificationWebhookResult });
