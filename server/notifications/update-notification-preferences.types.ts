import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZNotificationPreferences, ZUpdatePreferencesInput } from "./notification.schema";

export const updateNotificationPreferencesMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/me/notification-preferences",
    tags: ["Notifications"],
    summary: "Change the notification preferences",
    description:
      "A deep merge: only the fields sent change (muted_codes replaces the whole list, at most 100, duplicates dropped); " +
      "answers the whole preferences object. 400 validation_error for in_app enabled false, an unknown severity, an " +
      "unknown key (webhook is set with PUT /v1/me/notification-webhook), or email enabled while the server has no " +
      "SMTP_URL. A channel receives a notification when enabled and its severity ≥ the channel's min_severity. Audited " +
      "notification_preferences.updated.",
  },
  planExpiry: "exempt",
};
export const ZUpdateNotificationPreferencesRequest = ZUpdatePreferencesInput;
export const ZUpdateNotificationPreferencesResponse = z.object({ data: ZNotificationPreferences });
