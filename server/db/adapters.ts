// Driver adapters for the two engines. PGlite (embedded, one process, one connection) is the
// default; PostgreSQL is the production and multi-instance engine.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { watchPool } from "../metrics/pools";
import { errorFields, log } from "../log";
import { ensurePrivateDir } from "../crypto/private-files";
import { preparedStatementName } from "./prepared-statements";

export type TDatabaseTarget =
  | { engine: "postgres"; url: string }
  | { engine: "pglite"; dataDir: string } // "memory://" for an in-memory database
  | { engine: "pglite"; client: PGlite };

export function targetFromEnv(env: { DATABASE_URL?: string; dataDir: string }): TDatabaseTarget {
  return env.DATABASE_URL
    ? { engine: "postgres", url: env.DATABASE_URL }
    : { engine: "pglite", dataDir: path.join(env.dataDir, "pglite") };
}

export function describeTarget(target: TDatabaseTarget): string {
  if (target.engine === "postgres") return `PostgreSQL ${new URL(target.url).pathname.slice(1)}`;
  return "dataDir" in target ? `PGlite ${target.dataDir}` : "PGlite (in memory)";
}

/**
 * pglite-prisma-adapter 0.7.2 does not await `exec` in executeScript, so a failing migration
 * would be recorded as applied. This wrapper awaits it and lets the error through.
 */
function pgliteFactory(client: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPGlite(client);
  const fix = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    adapter.executeScript = async (script: string) => {
      await client.exec(script);
    };
    return adapter;
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => fix(await inner.connect()),
    connectToShadowDb: async () => {
      const shadow = new PGlite("memory://");
      return fix(await new PrismaPGlite(shadow).connect());
    },
  };
}

export type TOpenedTarget = {
  factory: SqlMigrationAwareDriverAdapterFactory;
  close: () => Promise<void>;
};

/**
 * Each pooled PostgreSQL session's settings.
 * - work_mem 16 MB (default 4): the SaaS metrics sort and window over a business's subscription
 *   changes (21,000 rows at 1,000,000 events) spilled to disk at 4 MB. Ten connections × a few
 *   sort nodes stays far below a small server's memory.
 * - No parallel query (max_parallel_workers_per_gather 0, default 2): every read is one owner's
 *   index range, and starting workers for it cost more than they saved. On the 1,000,000-event
 *   bench ledger a business's summary took p50 127 → 59 ms without them and the brief of a past
 *   day 157 → 99 ms, nothing got slower; workers would also take cores from concurrent requests.
 */
const POSTGRES_SESSION_OPTIONS = "-c work_mem=16MB -c max_parallel_workers_per_gather=0";

/**
 * PGlite's own start parameters, with a smaller buffer pool: PostgreSQL's default 128 MB of
 * shared buffers lives in the server process's WebAssembly memory and, once a large import has
 * been read, stays resident; the files are on disk (the OS caches them), so 32 MB costs little
 * speed and keeps a restart after a 100,000-line import under 512 MB resident.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/**
 * Opens a target. For an on-disk PGlite directory a lock file guards against a second
 * process opening it (two processes corrupt a PGlite directory).
 */
export async function openTarget(target: TDatabaseTarget): Promise<TOpenedTarget> {
  if (target.engine === "postgres") {
    // The pool is ours (not the adapter's) so the metrics can report its use (metrics/pools.ts).
    const pool = new pg.Pool({ connectionString: target.url, max: 10, options: POSTGRES_SESSION_OPTIONS });
    const unwatch = watchPool(target.url, pool);
    // An idle connection the server ends (a restart, a failover, a dropped test database) is an
    // 'error' event of the pool, which leaves the connection out; unheard, it would end the process.
    pool.on("error", (error) => log.warn("database: an idle connection was closed", errorFields(error)));
    return {
      factory: new PrismaPg(
        pool,
        // Unnamed (undefined) for every statement but the few marked ones: prepared-statements.ts.
        { statementNameGenerator: preparedStatementName as (query: { sql: string }) => string },
      ),
      close: async () => {
        unwatch();
        await pool.end();
      },
    };
  }
  if ("client" in target) {
    return { factory: pgliteFactory(target.client), close: async () => {} };
  }
  const releaseLock = target.dataDir.startsWith("memory://") ? () => {} : takeDirectoryLock(target.dataDir);
  const client = await PGlite.create(target.dataDir, { startParams: PGLITE_START_PARAMS });
  return {
    factory: pgliteFactory(client),
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

function takeDirectoryLock(dataDir: string): () => void {
  // The database files are the server user's alone (0700, parents created 0700 too).
  ensurePrivateDir(dataDir);
  const lockFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.lock`);
  try {
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database ${dataDir} is in use by process ${holder}. ` +
          "Stop it first, or set DATABASE_URL to use PostgreSQL for several processes.",
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => fs.rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
