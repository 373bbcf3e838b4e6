// Next.js calls register() once per server process: background jobs start here.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { scheduleMaintenance } = await import("./server/jobs/maintenance");
  const { getDatabase } = await import("./server/db/client");
  scheduleMaintenance(async () => (await getDatabase()).prisma);
}
