// The PostgreSQL runner of scheduled jobs: pg-boss, in its own schema (`pgboss`) of the app's
// database. Each job with a `cron` gets
//   - a queue with the `stately` policy: at most one job waiting and one running, across every
//     instance (a second send while one waits is dropped: `send` answers null);
//   - a cron schedule (UTC), stored in the database: every instance registers the same one,
//     and pg-boss's timekeeper sends each cron slot once, whichever instances are up;
//   - a worker in every instance; a job is fetched by exactly one of them (SKIP LOCKED), and run
//     under a lease the instance renews while the run lives (job-lease.ts): when the instance
//     dies, the lease lapses, pg-boss's maintenance puts the job back and another instance runs it.
// A job's data may carry `now` (ISO timestamp): the clock the run sees (tests, replays).
// A failing run is retried twice, 5 minutes apart (a new job, sent by the runner), unlike the
// in-process scheduler; a run whose instance died is retried at once (pg-boss's own retry, twice).
import PgBoss from "pg-boss";
import type { TDbOrTx } from "../db/client";
import { errorFields, log } from "../log";
import { holdJobLease, JOB_LEASE_TERMS, type THeldLease, type TLeaseTerms } from "./job-lease";
import type { TJob } from "./scheduler";

export const PG_BOSS_SCHEMA = "pgboss";

export type TQueuedJobData = {
  now?: string;
  /** How many runs of this job failed before this one (the runner's retries after an error). */
  failures?: number;
};

export type TQueueRunnerOptions = {
  connectionString: string;
  schema?: string;
  /** How often each worker polls its queue (default the lease's); pg-boss's minimum is 0.5. */
  pollingIntervalSeconds?: number;
  /** How often an instance checks the cron schedules (1–45 s, pg-boss default 30; tests). */
  cronMonitorIntervalSeconds?: number;
  /** How often the cron's own queue is polled (1–45 s, pg-boss default 5; tests). */
  cronWorkerIntervalSeconds?: number;
  /** A run's lease (job-lease.ts; tests shorten it). */
  lease?: Partial<TLeaseTerms>;
  /** Jobs that no longer run through the queue: their cron schedules are removed. */
  retired?: readonly string[];
};

export type TQueueRunner = {
  boss: PgBoss;
  /** Queues a run now (with an optional clock); null when one is already waiting. */
  trigger: (name: string, options?: { now?: Date }) => Promise<string | null>;
  /** Stops the workers and the timekeeper, waiting for a run in progress, and closes the pool. */
  stop: () => Promise<void>;
};

/** Retries after a run that threw (a run whose instance died is retried by pg-boss instead). */
const RETRIES_AFTER_FAILURE = 2;
const RETRY_AFTER_FAILURE_SECONDS = 300;
/** How long `stop` waits for the runs in progress. */
const STOP_TIMEOUT_MS = 30_000;

/** Deadlock, serialization failure, unique violation: another instance creating the same queue. */
const RETRYABLE = new Set(["40P01", "40001", "23505"]);

/**
 * Creates the job's queue, or brings an existing one to these settings (a database of an older
 * version kept an hour's expiry and a 5-minute retry delay). pg-boss creates a queue as a
 * partition of its job table; instances starting together can deadlock there, so a conflict is
 * retried.
 */
async function ensureQueue(boss: PgBoss, name: string, terms: TLeaseTerms): Promise<void> {
  // A lapsed lease is retried at once, twice (a third death in a row fails the job: the next
  // cron slot runs it again); a failed run is retried by the runner, not by pg-boss.
  const settings = { name, policy: "stately" as const, retryLimit: 2, retryDelay: 0, expireInSeconds: terms.leaseSeconds };
  for (let attempt = 0; ; attempt++) {
    try {
      if (await boss.getQueue(name)) await boss.updateQueue(name, settings);
      else await boss.createQueue(name, settings);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt + Math.random() * 50));
    }
  }
}

type TWorker = { stop: () => Promise<void>; abandon: () => void };

/**
 * One queue's worker in this instance: fetches a job when idle (every `pollingSeconds`), runs it
 * under its lease, completes or fails it through the lease (never once the lease is lost).
 */
function startWorker(
  boss: PgBoss,
  schema: string,
  job: TJob,
  getDb: () => Promise<TDbOrTx>,
  terms: TLeaseTerms,
  pollingSeconds: number,
): TWorker {
  let stopping = false;
  let held: THeldLease | null = null;
  let wakeFromSleep: (() => void) | null = null;

  const runOne = async (queued: PgBoss.JobWithMetadata<TQueuedJobData>) => {
    const lease = holdJobLease(boss, schema, queued, terms);
    held = lease;
    try {
      const now = queued.data?.now ? new Date(queued.data.now) : new Date();
      let result: unknown;
      try {
        result = await job.run(await getDb(), now);
      } catch (error) {
        log.error(`${job.name} failed`, { job_id: queued.id, ...errorFields(error) });
        const failures = (queued.data?.failures ?? 0) + 1;
        if ((await lease.fail(error)) && failures <= RETRIES_AFTER_FAILURE) {
          await boss.send(job.name, { ...queued.data, failures }, { startAfter: RETRY_AFTER_FAILURE_SECONDS });
        }
        return;
      }
      log.debug(job.name, { result, job_id: queued.id });
      await lease.complete(result);
    } finally {
      lease.release();
      held = null;
    }
  };

  const loop = (async () => {
    while (!stopping) {
      try {
        const [queued] = await boss.fetch<TQueuedJobData>(job.name, { batchSize: 1, includeMetadata: true });
        if (queued) {
          await runOne(queued);
          continue; // another may wait
        }
      } catch (error) {
        log.error(`${job.name}: queue worker failed`, errorFields(error));
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollingSeconds * 1000);
        wakeFromSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeFromSleep = null;
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      wakeFromSleep?.();
      await loop;
    },
    // The instance stops without the run: its lease lapses and another instance retries the job.
    abandon: () => held?.release(),
  };
}

export async function startQueuedJobs(
  jobs: readonly TJob[],
  getDb: () => Promise<TDbOrTx>,
  options: TQueueRunnerOptions,
): Promise<TQueueRunner> {
  const scheduled = jobs.filter((job): job is TJob & { cron: string } => Boolean(job.cron));
  const terms: TLeaseTerms = { ...JOB_LEASE_TERMS, ...options.lease };
  const schema = options.schema ?? PG_BOSS_SCHEMA;
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema,
    application_name: "finance-back-office-jobs",
    max: 4,
    maintenanceIntervalSeconds: terms.maintenanceIntervalSeconds,
    // pg-boss's own cron queue too: a dead instance's cron send is retried as soon.
    expireInSeconds: terms.leaseSeconds,
    ...(options.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds } : {}),
    ...(options.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds } : {}),
  });
  boss.on("error", (error) => log.error("pg-boss", errorFields(error)));
  await boss.start();
  const workers: TWorker[] = [];
  try {
    for (const name of options.retired ?? []) await boss.unschedule(name);
    for (const job of scheduled) {
      await ensureQueue(boss, job.name, terms);
      await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
      workers.push(startWorker(boss, schema, job, getDb, terms, options.pollingIntervalSeconds ?? terms.pollingIntervalSeconds));
    }
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.stop()));
    await boss.stop({ graceful: false, wait: true });
    throw error;
  }

  return {
    boss,
    trigger: (name, { now } = {}) => {
      if (!scheduled.some((job) => job.name === name)) throw new Error(`No queued job named ${name}.`);
      return boss.send(name, now ? { now: now.toISOString() } : {});
    },
    stop: async () => {
      const stopped = Promise.all(workers.map((worker) => worker.stop()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), STOP_TIMEOUT_MS);
      });
      if ((await Promise.race([stopped, timedOut])) === "timeout") workers.forEach((worker) => worker.abandon());
      clearTimeout(timer);
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
    },
  };
}
