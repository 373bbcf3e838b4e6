import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZReadAllInput } from "./notification.schema";

export const readAllNotificationsMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/notifications/read-all",
    tags: ["Notifications"],
    summary: "Mark all notifications read",
    description:
      "Marks read every unread notification created at or before `before` (default now); stores nothing new, so 200. " +
      "updated is how many changed: repeating the call (with a new Idempotency-Key) answers 0. Audited " +
      "notifications.read_all { updated }.",
  },
  planExpiry: "exempt",
};
export const ZReadAllNotificationsRequest = ZReadAllInput;
export const ZReadAllNotificationsResponse = z.object({
  data: z.object({ updated: z.number().int().describe("Notifications marked read by this call.") }),
});
