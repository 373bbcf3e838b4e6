// Every background job of the app, started by instrumentation.ts through the scheduler.
import type { TDbOrTx } from "../db/client";
import { fxRefreshJob } from "../fx/refresh-job";
import { maintenanceJob } from "./maintenance";
import { startJobs, type TJob } from "./scheduler";

export const JOBS: readonly TJob[] = [maintenanceJob, fxRefreshJob];

export function startScheduledJobs(getDb: () => Promise<TDbOrTx>) {
  return startJobs(JOBS, getDb);
}
