// The job queues' depth and age for the metrics (pg-boss's queues on PostgreSQL, see
// jobs/pg-boss-runner.ts): per queue, the jobs waiting (created or retry), running (active), and
// the age of the oldest waiting one. Read from the primary at each scrape (registered by
// start-in-server.ts when the queue runs).
import type { TDbOrTx } from "../db/client";
import { PG_BOSS_SCHEMA } from "./pg-boss-runner";
import type { TSample } from "../metrics/registry";

type TRow = { name: string; waiting: bigint; active: bigint; oldest: number | null };

export async function jobQueueSamples(db: TDbOrTx): Promise<TSample[]> {
  const rows = await db.$queryRawUnsafe<TRow[]>(
    `SELECT q.name,
            count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now()) AS waiting,
            count(j.id) FILTER (WHERE j.state = 'active') AS active,
            extract(epoch FROM now() - min(j.created_on) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now()))::float8 AS oldest
       FROM ${PG_BOSS_SCHEMA}.queue q
       LEFT JOIN ${PG_BOSS_SCHEMA}.job j ON j.name = q.name AND j.state IN ('created', 'retry', 'active')
      WHERE q.name NOT LIKE '\\_\\_pgboss%'
      GROUP BY q.name`,
  );
  return rows.flatMap((row): TSample[] => [
    {
      name: "fbo_job_queue_depth",
      help: "Queued jobs by queue and state (waiting: due and not yet fetched; active: running).",
      type: "gauge",
      labels: { queue: row.name, state: "waiting" },
      value: Number(row.waiting),
    },
    {
      name: "fbo_job_queue_depth",
      help: "Queued jobs by queue and state (waiting: due and not yet fetched; active: running).",
      type: "gauge",
      labels: { queue: row.name, state: "active" },
      value: Number(row.active),
    },
    {
      name: "fbo_job_queue_oldest_age_seconds",
      help: "Age of the oldest due job not yet fetched, by queue (0 when none waits).",
      type: "gauge",
      labels: { queue: row.name },
      value: row.oldest ?? 0,
    },
  ]);
}
