// The process's PostgreSQL pools, for the metrics (registry.ts): each pool's connections in use,
// idle, and the queries waiting for one, labelled by the server and database it connects to.
import type pg from "pg";
import { metrics, type TSample } from "./registry";

const POOLS_KEY = Symbol.for("finance-back-office.pools");

type TWatched = Map<pg.Pool, string>;

function watched(): TWatched {
  const store = globalThis as unknown as Record<symbol, TWatched | undefined>;
  let pools = store[POOLS_KEY];
  if (!pools) {
    const created: TWatched = new Map();
    pools = store[POOLS_KEY] = created;
    metrics().addCollector("pools", async () => poolSamples(created));
  }
  return pools;
}

/** "host:port/database" of a connection string, without its user or password. */
export function poolLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}

/** Reports the pool until the returned function is called. */
export function watchPool(url: string, pool: pg.Pool): () => void {
  const pools = watched();
  pools.set(pool, poolLabel(url));
  return () => pools.delete(pool);
}

function poolSamples(pools: TWatched): TSample[] {
  const samples: TSample[] = [];
  const help = "Database pool connections by state (in_use, idle) and queries waiting for one (waiting).";
  for (const [pool, label] of pools) {
    const sample = (state: string, value: number): TSample => ({
      name: "fbo_db_pool_connections",
      help,
      type: "gauge",
      labels: { pool: label, state },
      value,
    });
    samples.push(
      sample("in_use", pool.totalCount - pool.idleCount),
      sample("idle", pool.idleCount),
      sample("waiting", pool.waitingCount),
    );
  }
  return samples;
}
