import { ownerProcedure } from "../trpc/init";
import { findNotificationsMeta, ZFindNotificationsRequest, ZFindNotificationsResponse } from "./find-notifications.types";
import { findNotifications } from "./notification-service";

export const findNotificationsRoute = ownerProcedure
  .meta(findNotificationsMeta)
  .input(ZFindNotificationsRequest)
  .output(ZFindNotificationsResponse)
  .query(({ ctx, input }) => findNotifications(ctx.db, ctx.actor.ownerId, input));
