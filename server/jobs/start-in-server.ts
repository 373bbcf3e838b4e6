// The server process's background jobs (instrumentation.ts): started once, stopped on
// SIGINT/SIGTERM before the process ends.
import { getDatabase } from "../db/client";
import { errorFields, log } from "../log";
import { startScheduledJobs } from "./registry";

export async function startJobsInServer(): Promise<void> {
  try {
    const jobs = await startScheduledJobs(async () => (await getDatabase()).prisma, {
      databaseUrl: process.env.DATABASE_URL || undefined,
    });
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
