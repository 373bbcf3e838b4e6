import { router } from "../trpc/init";
import { findRecentAlertsRoute } from "./find-recent-alerts";

export const alertsRouter = router({
  recent: findRecentAlertsRoute,
});
