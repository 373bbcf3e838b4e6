// The in-process scheduler: a small registry of interval jobs, started once per server process
// (instrumentation.ts). Every job must be idempotent, so several app instances (or a restart
// mid-run) running it at once is harmless; a job never overlaps itself within one process.
import type { TDbOrTx } from "../db/client";
import { errorFields, log } from "../log";

export type TJob = {
  name: string;
  /** In process (the embedded database, or a job without `cron`): run at start, then every interval. */
  intervalMs: number;
  /**
   * A cron expression (UTC): on PostgreSQL the job runs through the pg-boss queue on this
   * schedule, once across all instances (pg-boss-runner.ts), instead of in process.
   */
  cron?: string;
  /** Runs once; what it answers is logged at debug level. */
  run: (db: TDbOrTx, now: Date) => Promise<unknown>;
};

export type TScheduler = {
  /** Runs a job now (joining a run in progress); `now` is the clock it sees (tests). */
  runNow: (name: string, now?: Date) => Promise<unknown>;
  /** Asks for a run soon: now, or right after the run in progress (which may have missed new work). */
  wake: (name: string) => void;
  stop: () => void;
};

/** Runs each job now and then every interval; `stop` clears the timers. */
export function startJobs(jobs: readonly TJob[], getDb: () => Promise<TDbOrTx>): TScheduler {
  const running = new Map<string, Promise<unknown>>();
  const wokenDuringRun = new Set<string>();
  const timers: ReturnType<typeof setInterval>[] = [];

  const tick = (job: TJob, now?: Date): Promise<unknown> => {
    const current = running.get(job.name);
    if (current) return current;
    const run = (async () => {
      try {
        const result = await job.run(await getDb(), now ?? new Date());
        log.debug(job.name, { result });
        return result;
      } catch (error) {
        log.error(`${job.name} failed`, errorFields(error));
        return undefined;
      } finally {
        running.delete(job.name);
        if (wokenDuringRun.delete(job.name)) void tick(job);
      }
    })();
    running.set(job.name, run);
    return run;
  };

  // The runs at start go one after another, not all at once: on the embedded database they share
  // one connection anyway, and side by side their working sets add up (the 100,000-line restart
  // test holds the server under 512 MB resident).
  void (async () => {
    for (const job of jobs) await tick(job);
  })();
  for (const job of jobs) {
    const timer = setInterval(() => void tick(job), job.intervalMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    runNow: (name, now) => {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`No job named ${name}.`);
      return tick(job, now);
    },
    wake: (name) => {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`No job named ${name}.`);
      if (running.has(name)) wokenDuringRun.add(name);
      else void tick(job);
    },
    stop: () => timers.forEach(clearInterval),
  };
}
