// Every background job of the app, started once per server process by instrumentation.ts.
//
// One definition per job (TJob), two runners:
//   - the in-process scheduler (scheduler.ts): every job on the embedded database (PGlite, one
//     process), and on PostgreSQL the jobs without `cron` (idempotent sweeps and the notification
//     delivery: each instance runs them);
//   - pg-boss (pg-boss-runner.ts), on PostgreSQL only: the jobs with `cron` (the daily
//     reconciliation), on their schedule, once across all instances, each run under a lease that
//     a dead instance stops renewing (job-lease.ts).
import type { TDbOrTx } from "../db/client";
import { dailyBriefJob } from "./daily-brief";
import { fxRefreshJob } from "./fx-refresh";
import { setDeliveryWaker } from "../notifications/delivery-wake";
import { maintenanceJob } from "./maintenance";
import { NOTIFICATION_DELIVERY_JOB, notificationDeliveryJob } from "./notification-delivery";
import { planExpiryJob } from "./plan-expiry";
import type { TQueueRunner, TQueueRunnerOptions } from "./pg-boss-runner";
import { reconciliationJob } from "./reconciliation";
import { tokenExpiryJob } from "./token-expiry";
import { startJobs, type TJob, type TScheduler } from "./scheduler";

export const JOBS: readonly TJob[] = [
  maintenanceJob,
  fxRefreshJob,
  notificationDeliveryJob,
  tokenExpiryJob,
  dailyBriefJob,
  planExpiryJob,
  // Last: in process its run at start is the long one (a large import's lines), and the runs at
  // start go one after another.
  reconciliationJob,
];

/**
 * Jobs that once ran through pg-boss and now run in process: a database that still holds their
 * cron schedule would keep queueing runs nobody fetches.
 */
const RETIRED_QUEUED_JOBS = [NOTIFICATION_DELIVERY_JOB];

export type TRunningJobs = {
  scheduler: TScheduler;
  /** The pg-boss runner on PostgreSQL; null on the embedded database. */
  queue: TQueueRunner | null;
  stop: () => Promise<void>;
};

export type TStartOptions = {
  /** DATABASE_URL: set = PostgreSQL, the cron jobs go through pg-boss. */
  databaseUrl?: string;
  jobs?: readonly TJob[];
  queue?: Omit<TQueueRunnerOptions, "connectionString">;
};

export async function startScheduledJobs(getDb: () => Promise<TDbOrTx>, options: TStartOptions = {}): Promise<TRunningJobs> {
  const jobs = options.jobs ?? JOBS;
  const queued = options.databaseUrl ? jobs.filter((job) => job.cron) : [];
  const scheduler = startJobs(
    jobs.filter((job) => !queued.includes(job)),
    getDb,
  );
  let queue: TQueueRunner | null = null;
  if (queued.length) {
    try {
      // Loaded only on PostgreSQL: the embedded database never needs pg-boss.
      const { startQueuedJobs } = await import("./pg-boss-runner");
      queue = await startQueuedJobs(queued, getDb, {
        ...options.queue,
        connectionString: options.databaseUrl!,
        retired: RETIRED_QUEUED_JOBS,
      });
    } catch (error) {
      scheduler.stop();
      throw error;
    }
  }
  // A write that queued a notification delivery wakes this instance's delivery job; what a
  // stopped server left pending goes out with the scheduler's run at start.
  if (jobs.some((job) => job.name === NOTIFICATION_DELIVERY_JOB)) {
    setDeliveryWaker(() => scheduler.wake(NOTIFICATION_DELIVERY_JOB));
  }
  return {
    scheduler,
    queue,
    stop: async () => {
      setDeliveryWaker(null);
      scheduler.stop();
      await queue?.stop();
    },
  };
}
