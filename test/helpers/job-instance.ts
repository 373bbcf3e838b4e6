// One instance's background jobs, in a process of its own, for tests that kill an instance
// (server/jobs/dead-instance.int.test.ts): the app's jobs (JOBS) on PostgreSQL, started as the
// server starts them (startScheduledJobs with DATABASE_URL), until the process is killed.
// Run with `node --import tsx test/helpers/job-instance.ts` (tsx's own CLI would put a relay
// process between the test and the instance, and a kill would reach the relay).
//
// JOB_INSTANCE (JSON, TJobInstanceOptions) shortens the waits so the test need not sit through
// the production ones; job-lease.test.ts checks the production values against the rule.
// Prints "ready" once the jobs run; job runs are logged as JSON lines (LOG_LEVEL=debug).
import { connectDatabase } from "../../server/db/client";
import { deliverDueNotifications } from "../../server/notifications/delivery-service";
import { NOTIFICATION_DELIVERY_JOB } from "../../server/jobs/notification-delivery";
import type { TQueueRunnerOptions } from "../../server/jobs/pg-boss-runner";
import { JOBS, startScheduledJobs } from "../../server/jobs/registry";

export type TJobInstanceOptions = {
  deliveryIntervalMs: number;
  deliveryClaimLeaseMs: number;
  queue: Omit<TQueueRunnerOptions, "connectionString">;
};

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const options = JSON.parse(process.env.JOB_INSTANCE ?? "{}") as TJobInstanceOptions;

const database = await connectDatabase({ engine: "postgres", url });
const jobs = JOBS.map((job) =>
  job.name === NOTIFICATION_DELIVERY_JOB
    ? {
        ...job,
        intervalMs: options.deliveryIntervalMs,
        run: (db: Parameters<typeof job.run>[0], now: Date) =>
          deliverDueNotifications(db, now, { claimLeaseMs: options.deliveryClaimLeaseMs }),
      }
    : job,
);
await startScheduledJobs(async () => database.prisma, { databaseUrl: url, jobs, queue: options.queue });
process.stdout.write("ready\n");
// Stay up until killed, whatever timers the jobs keep.
setInterval(() => undefined, 60_000);
