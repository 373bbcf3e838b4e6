import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZNotificationPreferences } from "./notification.schema";

export const getNotificationPreferencesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/me/notification-preferences",
    tags: ["Notifications"],
    summary: "The owner's notification preferences",
    description:
      "Channels (in_app always on; webhook and email each enabled or not, with the lowest severity they receive), muted " +
      "codes (exact or prefix*; a muted code creates no notification at all) and the outbound webhook (read-only here). " +
      "Defaults: webhook on at info, email off at critical, nothing muted, no webhook.",
  },
};
export const ZGetNotificationPreferencesRequest = z.object({});
export const ZGetNotificationPreferencesResponse = z.object({ data: ZNotificationPreferences });
