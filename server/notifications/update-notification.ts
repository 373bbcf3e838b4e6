import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { markNotification } from "./notification-service";
import { updateNotificationMeta, ZUpdateNotificationRequest, ZUpdateNotificationResponse } from "./update-notification.types";

export const updateNotificationRoute = ownerProcedure
  .meta(updateNotificationMeta)
  .input(ZUpdateNotificationRequest)
  .output(ZUpdateNotificationResponse)
  .mutation(async ({ ctx, input: { id, read } }) => ({ data: await markNotification(ctx.db, callerOf(ctx), id, read) }));
