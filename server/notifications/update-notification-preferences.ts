import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updatePreferences } from "./preference-service";
import {
  updateNotificationPreferencesMeta,
  ZUpdateNotificationPreferencesRequest,
  ZUpdateNotificationPreferencesResponse,
} from "./update-notification-preferences.types";

export const updateNotificationPreferencesRoute = ownerProcedure
  .meta(updateNotificationPreferencesMeta)
  .input(ZUpdateNotificationPreferencesRequest)
  .output(ZUpdateNotificationPreferencesResponse)
  .mutation(async ({ ctx, input }) => ({ data: await updatePreferences(ctx.db, callerOf(ctx), input) }));
