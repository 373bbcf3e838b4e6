// The server process's background jobs (instrumentation.ts): started once, stopped on
// SIGINT/SIGTERM before the process ends.
import { getDatabase } from "../db/client";
import { errorFields, log } from "../log";
import { metrics } from "../metrics/registry";
import { jobQueueSamples } from "./queue-metrics";
import { startScheduledJobs } from "./registry";

/** Where scripts/serve.mjs collects what must finish before the process exits (its SHUTDOWN_HOOKS_KEY). */
export const SHUTDOWN_HOOKS_KEY = Symbol.for("finance-back-office.shutdown-hooks");

export async function startJobsInServer(): Promise<void> {
  try {
    const jobs = await startScheduledJobs(async () => (await getDatabase()).prisma, {
      databaseUrl: process.env.DATABASE_URL || undefined,
    });
    if (jobs.queue) metrics().addCollector("job-queues", async () => jobQueueSamples((await getDatabase()).prisma));
    // Under scripts/serve.mjs the server drains first (in-flight requests end), then awaits this.
    const shutdownHooks = (globalThis as unknown as Record<symbol, Set<() => Promise<void>> | undefined>)[SHUTDOWN_HOOKS_KEY];
    if (shutdownHooks) {
      shutdownHooks.add(() => jobs.stop().catch((error: unknown) => log.error("stopping jobs failed", errorFields(error))));
      return;
    }
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        jobs
          .stop()
          .catch((error: unknown) => log.error("stopping jobs failed", errorFields(error)))
          // Next.js exits on the signal itself; were nobody else listening, end as the signal would.
          .finally(() => {
            if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
          });
      });
  } catch (error) {
    log.error("background jobs failed to start", errorFields(error));
  }
}
