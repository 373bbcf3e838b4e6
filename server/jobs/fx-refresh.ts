// The scheduled FX refresh (server/fx/refresh-job.ts): every hour, in process in every instance
// (the upsert is idempotent, so several instances doing it at once is harmless).
import { FX_REFRESH_INTERVAL_MS, runFxRefresh } from "../fx/refresh-job";
import type { TJob } from "./scheduler";

export const fxRefreshJob: TJob = {
  name: "fx-refresh",
  intervalMs: FX_REFRESH_INTERVAL_MS,
  run: (db, now) => runFxRefresh(db, now),
};
