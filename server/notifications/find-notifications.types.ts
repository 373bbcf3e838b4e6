import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZFindNotificationsQuery, ZNotification } from "./notification.schema";

export const findNotificationsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/notifications",
    tags: ["Notifications"],
    summary: "List notifications",
    description:
      "The owner's notifications, newest first (created_at desc, id desc), cursor pages. Filters combine with AND: " +
      "unread (true: read_at null; false: read), severity (exact), code (exact, or a prefix ending in *), from/to on " +
      "created_at (a day is a whole UTC day). A notification is created in the same transaction as its cause: every " +
      "alert (its code and severity, ref { type: alert }), an approval waiting for the owner (approval.pending, warning, " +
      "ref approval), an import confirmed with rejected rows (import.rows_rejected, info, ref import). A muted code " +
      "(preferences) creates none. delivered lists every delivery attempt; in_app is recorded at creation.",
  },
};
export const ZFindNotificationsRequest = ZFindNotificationsQuery;
export const ZFindNotificationsResponse = ZListOf(ZNotification);
