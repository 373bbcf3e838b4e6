// Next.js calls register() once per server process: background jobs start here (on PostgreSQL
// the cron jobs through pg-boss, see server/jobs/registry.ts) and stop on SIGINT/SIGTERM.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startScheduledJobs } = await import("./server/jobs/registry");
  const { getDatabase } = await import("./server/db/client");
  const { errorFields, log } = await import("./server/log");
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
