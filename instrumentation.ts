// Next.js calls register() once per server process: background jobs start here.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startScheduledJobs } = await import("./server/jobs/registry");
  const { getDatabase } = await import("./server/db/client");
  startScheduledJobs(async () => (await getDatabase()).prisma);
}
