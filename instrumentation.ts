// Next.js calls register() once per server process: background jobs start here (on PostgreSQL
// the cron jobs through pg-boss, see server/jobs/registry.ts). The Node-only work lives in
// server/jobs/start-in-server.ts, so the edge build of this file sees no Node APIs. Before them,
// what scripts/serve.mjs asks of the app (readiness, metrics: server/fleet/install.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installFleetHooks } = await import("./server/fleet/install");
  installFleetHooks();
  const { startJobsInServer } = await import("./server/jobs/start-in-server");
  await startJobsInServer();
}
