// The query plans of the "read" benchmark: each measured request runs once more in this
// process, through the real /v1 handler (server/rest/v1.ts) on the benchmark's database, with a
// Prisma client whose driver adapter records every statement with its arguments. Each
// recorded SELECT then runs as EXPLAIN (ANALYZE, BUFFERS) through the same adapter (so the
// arguments are bound exactly as the application binds them). No read model is named here:
// whatever SQL an operation runs is what gets explained.
import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "../../server/db/generated/client";
import { createV1Handler } from "../../server/rest/v1";
import { applyTestEnv } from "../../test/helpers/api";

export type TStatement = { sql: string; query: SqlQuery; ms: number; rows: number };

export type TExplained = {
  sql: string;
  /** Wall time of the statement when the request ran in this process. */
  ms: number;
  rows: number;
  plan: string[];
  /** From the plan: "Execution Time" and "Planning Time" in ms. */
  executionMs: number | null;
  planningMs: number | null;
};

export type TPlanCapture = {
  /** Runs `GET path` in process and explains the SELECTs it ran, slowest first. */
  explain: (path: string) => Promise<{ status: number; statements: TExplained[] }>;
  close: () => Promise<void>;
};

// A leading comment (server/db/prepared-statements.ts marks prepared reads with one) is skipped.
const isRead = (sql: string) => /^\s*(?:\/\*[\s\S]*?\*\/\s*)?(select|with)\b/i.test(sql);

function recordingQueryable<T extends SqlQueryable>(inner: T, sink: () => TStatement[] | undefined): T {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "queryRaw") {
        return async (query: SqlQuery) => {
          const started = performance.now();
          const result = await target.queryRaw(query);
          sink()?.push({ sql: query.sql, query, ms: performance.now() - started, rows: result.rows.length });
          return result;
        };
      }
      if (property === "startTransaction") {
        return async (...args: unknown[]) =>
          recordingQueryable(await (target as unknown as SqlDriverAdapter).startTransaction(...(args as [])), sink);
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function planNumber(plan: string[], label: string): number | null {
  const line = plan.find((l) => l.trimStart().startsWith(`${label}:`));
  const match = line ? /([\d.]+) ms/.exec(line) : null;
  return match ? Number(match[1]) : null;
}

/**
 * An in-process /v1 handler on `databaseUrl` signed in as the same static owner as the server
 * (same token, same default owner email), recording its statements.
 */
export async function createPlanCapture(databaseUrl: string, token: string): Promise<TPlanCapture> {
  applyTestEnv({
    DATABASE_URL: databaseUrl,
    AUTH_MODE: "static",
    STATIC_OWNER_TOKEN: token,
    RATE_LIMIT_PER_MINUTE: "100000000",
    LOG_LEVEL: "silent",
    ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
  });
  let current: TStatement[] | undefined;
  const factory = new PrismaPg({ connectionString: databaseUrl, max: 2 });
  const recording: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => recordingQueryable(await factory.connect(), () => current),
  };
  const prisma = new PrismaClient({ adapter: recording });
  const explainer = await factory.connect();
  const handler = createV1Handler({ getDb: async () => prisma });

  const call = async (path: string) => {
    const res = await handler(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    await res.text();
    return res.status;
  };

  return {
    async explain(path) {
      await call(path); // warm: the first call of an operation also loads its modules
      current = [];
      const status = await call(path);
      const statements = current;
      current = undefined;
      const explained: TExplained[] = [];
      for (const statement of statements.filter((s) => isRead(s.sql))) {
        const result = await explainer.queryRaw({
          ...statement.query,
          sql: `EXPLAIN (ANALYZE, BUFFERS) ${statement.query.sql}`,
        });
        const plan = result.rows.map((row) => String(row[0]));
        explained.push({
          sql: statement.sql,
          ms: statement.ms,
          rows: statement.rows,
          plan,
          executionMs: planNumber(plan, "Execution Time"),
          planningMs: planNumber(plan, "Planning Time"),
        });
      }
      explained.sort((a, b) => (b.executionMs ?? b.ms) - (a.executionMs ?? a.ms));
      return { status, statements: explained };
    },
    async close() {
      await prisma.$disconnect();
      await explainer.dispose();
    },
  };
}

/** The lines of a plan worth reading at a glance: scans, joins, sorts, aggregates, JIT, times. */
export function keyPlanLines(plan: string[]): string[] {
  return plan
    .filter((line) =>
      /Scan|Join|Nested Loop|Sort|Aggregate|Hash|Limit|Execution Time|Planning Time|JIT|Buffers: shared/.test(line),
    )
    .filter((line, index, all) => !/Buffers: shared/.test(line) || index === 0 || !/Buffers: shared/.test(all[index - 1]!))
    .slice(0, 12);
}
