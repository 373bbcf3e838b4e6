import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { readAllNotifications } from "./notification-service";
import {
  readAllNotificationsMeta,
  ZReadAllNotificationsRequest,
  ZReadAllNotificationsResponse,
} from "./read-all-notifications.types";

export const readAllNotificationsRoute = ownerProcedure
  .meta(readAllNotificationsMeta)
  .input(ZReadAllNotificationsRequest)
  .output(ZReadAllNotificationsResponse)
  .mutation(async ({ ctx, input }) => ({ data: await readAllNotifications(ctx.db, callerOf(ctx), input) }));
