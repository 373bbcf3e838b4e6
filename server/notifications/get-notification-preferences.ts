import { ownerProcedure } from "../trpc/init";
import {
  getNotificationPreferencesMeta,
  ZGetNotificationPreferencesRequest,
  ZGetNotificationPreferencesResponse,
} from "./get-notification-preferences.types";
import { getPreferences } from "./preference-service";

export const getNotificationPreferencesRoute = ownerProcedure
  .meta(getNotificationPreferencesMeta)
  .input(ZGetNotificationPreferencesRequest)
  .output(ZGetNotificationPreferencesResponse)
  .query(async ({ ctx }) => ({ data: await getPreferences(ctx.db, ctx.actor.ownerId) }));
