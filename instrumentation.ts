// Next.js calls register() once per server process: background jobs start here (on PostgreSQL
// the cron jobs through pg-boss, see server/jobs/registry.ts). The Node-only work lives in
// server/jobs/start-in-server.ts, so the edge build of this file sees no Node APIs.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startJobsInServer } = await import("./server/jobs/start-in-server");
  await startJobsInServer();
}
