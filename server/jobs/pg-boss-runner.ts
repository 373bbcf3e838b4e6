// The PostgreSQL runner of scheduled jobs: pg-boss, in its own schema (`pgboss`) of the app's
// database. Each job with a `cron` gets
//   - a queue with the `stately` policy: at most one job waiting and one running, across every
//     instance (a second send while one waits is dropped: `send` answers null);
//   - a cron schedule (UTC), stored in the database: every instance registers the same one,
//     and pg-boss's timekeeper sends each cron slot once, whichever instances are up;
//   - a worker in every instance; a job is fetched by exactly one of them (SKIP LOCKED).
// A job's data may carry `now` (ISO timestamp): the clock the run sees (tests, replays).
// A failing run is retried by pg-boss (retryLimit), unlike the in-process scheduler.
import PgBoss from "pg-boss";
import type { TDbOrTx } from "../db/client";
import { errorFields, log } from "../log";
import type { TJob } from "./scheduler";

export const PG_BOSS_SCHEMA = "pgboss";

export type TQueuedJobData = { now?: string };

export type TQueueRunnerOptions = {
  connectionString: string;
  schema?: string;
  /** How often each worker polls its queue; pg-boss's minimum is 0.5. */
  pollingIntervalSeconds?: number;
  /** How often an instance checks the cron schedules (1–45 s, pg-boss default 30; tests). */
  cronMonitorIntervalSeconds?: number;
  /** How often the cron's own queue is polled (1–45 s, pg-boss default 5; tests). */
  cronWorkerIntervalSeconds?: number;
};

export type TQueueRunner = {
  boss: PgBoss;
  /** Queues a run now (with an optional clock); null when one is already waiting. */
  trigger: (name: string, options?: { now?: Date }) => Promise<string | null>;
  /** Stops the workers and the timekeeper, waiting for a run in progress, and closes the pool. */
  stop: () => Promise<void>;
};

/** Deadlock, serialization failure, unique violation: another instance creating the same queue. */
const RETRYABLE = new Set(["40P01", "40001", "23505"]);

/**
 * Creates the job's queue unless it exists. pg-boss creates a queue as a partition of its job
 * table; instances starting together can deadlock there, so a conflict is retried.
 */
async function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      await boss.createQueue(name, { name, policy: "stately", retryLimit: 2, retryDelay: 300, expireInSeconds: 60 * 60 });
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt + Math.random() * 50));
    }
  }
}

export async function startQueuedJobs(
  jobs: readonly TJob[],
  getDb: () => Promise<TDbOrTx>,
  options: TQueueRunnerOptions,
): Promise<TQueueRunner> {
  const scheduled = jobs.filter((job): job is TJob & { cron: string } => Boolean(job.cron));
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema ?? PG_BOSS_SCHEMA,
    application_name: "finance-back-office-jobs",
    max: 4,
    ...(options.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds } : {}),
    ...(options.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds } : {}),
  });
  boss.on("error", (error) => log.error("pg-boss", errorFields(error)));
  await boss.start();
  try {
    for (const job of scheduled) {
      await ensureQueue(boss, job.name);
      await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
      await boss.work<TQueuedJobData>(
        job.name,
        { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? job.queuePollingSeconds ?? 10 },
        async (batch) => {
          const results: unknown[] = [];
          for (const queued of batch) {
            const now = queued.data?.now ? new Date(queued.data.now) : new Date();
            const result = await job.run(await getDb(), now);
            log.debug(job.name, { result, job_id: queued.id });
            results.push(result);
          }
          return results.length === 1 ? results[0] : results;
        },
      );
    }
  } catch (error) {
    await boss.stop({ graceful: false, wait: true });
    throw error;
  }

  return {
    boss,
    trigger: (name, { now } = {}) => {
      if (!scheduled.some((job) => job.name === name)) throw new Error(`No queued job named ${name}.`);
      return boss.send(name, now ? { now: now.toISOString() } : {});
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 30_000 }),
  };
}
