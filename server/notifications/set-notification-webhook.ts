import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  setNotificationWebhookMeta,
  ZSetNotificationWebhookRequest,
  ZSetNotificationWebhookResponse,
} from "./set-notification-webhook.types";
import { setNotificationWebhook } from "./webhook-service";

export const setNotificationWebhookRoute = ownerProcedure
  .meta(setNotificationWebhookMeta)
  .input(ZSetNotificationWebhookRequest)
  .output(ZSetNotificationWebhookResponse)
  .mutation(async ({ ctx, input }) => ({ data: await setNotificationWebhook(ctx.db, callerOf(ctx), input) }));
