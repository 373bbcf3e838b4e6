import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZNotification, ZUpdateNotificationInput } from "./notification.schema";

export const updateNotificationMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/notifications/{id}",
    tags: ["Notifications"],
    summary: "Mark a notification read or unread",
    description:
      "{ read: true } sets read_at to now (a notification already read keeps its read_at); { read: false } sets it to " +
      "null. Answers the notification. Audited notification.read / notification.unread. Another owner's notification " +
      "is 404 not_found.",
  },
  planExpiry: "exempt",
};
export const ZUpdateNotificationRequest = ZIdParam.extend(ZUpdateNotificationInput.shape);
export const ZUpdateNotificationResponse = z.object({ data: ZNotification });
