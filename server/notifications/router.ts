import { router } from "../trpc/init";
import { findNotificationsRoute } from "./find-notifications";
import { getNotificationPreferencesRoute } from "./get-notification-preferences";
import { readAllNotificationsRoute } from "./read-all-notifications";
import { setNotificationWebhookRoute } from "./set-notification-webhook";
import { updateNotificationRoute } from "./update-notification";
import { updateNotificationPreferencesRoute } from "./update-notification-preferences";

export const notificationsRouter = router({
  find: findNotificationsRoute,
  update: updateNotificationRoute,
  readAll: readAllNotificationsRoute,
  getPreferences: getNotificationPreferencesRoute,
  updatePreferences: updateNotificationPreferencesRoute,
  setWebhook: setNotificationWebhookRoute,
});
