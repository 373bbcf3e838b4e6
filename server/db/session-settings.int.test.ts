// The settings each engine's sessions open with (server/db/adapters.ts): PostgreSQL's pooled
// sessions sort in 16 MB (the SaaS metrics statement spilled to disk at the default 4 MB) and start
// no parallel workers (they cost the 1,000,000-event reads more than they saved), and an
// on-disk PGlite keeps a 32 MB buffer pool (the default 128 MB stayed resident in the server
// process after a large import, past the restart test's 512 MB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testEngine } from "../../test/helpers/database";
import { connectDatabase } from "./client";
import { PREPARED, preparedStatementName } from "./prepared-statements";

describe("session settings", () => {
  it.runIf(testEngine() === "postgres")(
    "an idle pooled connection the server ends is left out, not an uncaught error, and the next query reconnects",
    async () => {
      const database = await createTestDatabase();
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", onUncaught);
      try {
        const [backend] = await database.prisma.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
        // Another session ends the pool's idle connection, as a failover or a dropped database does.
        const other = await createTestDatabase();
        try {
          await other.prisma.$queryRawUnsafe("SELECT pg_terminate_backend($1)", backend!.pid);
        } finally {
          await other.close();
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        const answer = await database.prisma.$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`;
        expect(answer).toEqual([{ ok: 1 }]);
        expect(uncaught).toEqual([]);
      } finally {
        process.off("uncaughtException", onUncaught);
        await database.close();
      }
    },
  );

  it.runIf(testEngine() === "postgres")("PostgreSQL sessions have work_mem 16MB and no parallel workers", async () => {
    const database = await createTestDatabase();
    try {
      const rows = await database.prisma.$queryRaw<Array<{ work_mem: string; workers: string }>>`
        SELECT current_setting('work_mem') AS work_mem, current_setting('max_parallel_workers_per_gather') AS workers`;
      expect(rows[0]).toEqual({ work_mem: "16MB", workers: "0" });
    } finally {
      await database.close();
    }
  });

  it.runIf(testEngine() === "postgres")(
    "a statement marked PREPARED runs as a named prepared statement of its session; others stay unnamed",
    async () => {
      const database = await createTestDatabase();
      try {
        const marker = `prep_${Math.random().toString(36).slice(2)}`;
        // One session: a transaction holds its connection.
        const names = await database.prisma.$transaction(async (tx) => {
          const answer = await tx.$queryRaw<Array<{ marker: string }>>`${PREPARED}SELECT ${marker}::text AS marker`;
          expect(answer).toEqual([{ marker }]);
          await tx.$queryRaw`SELECT ${marker}::text AS unmarked`;
          return tx.$queryRaw<Array<{ name: string; statement: string }>>`
            SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`} OR statement LIKE '%AS marker'`;
        });
        expect(names).toEqual([{ name: expect.stringMatching(/^fbo_/), statement: expect.stringContaining("AS marker") }]);
        // The same text is the same statement again (no second Parse), another text another name.
        const again = await database.prisma.$transaction(async (tx) => {
          for (let i = 0; i < 7; i++) await tx.$queryRaw`${PREPARED}SELECT ${`${marker}-${i}`}::text AS marker`;
          return tx.$queryRaw<Array<{ generic_plans: bigint; custom_plans: bigint }>>`
            SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%AS marker'`;
        });
        expect(again).toHaveLength(1);
        expect(Number(again[0]!.generic_plans) + Number(again[0]!.custom_plans)).toBeGreaterThanOrEqual(7);
      } finally {
        await database.close();
      }
    },
  );

  it("statement names: only marked texts, one name per text", () => {
    expect(preparedStatementName({ sql: "SELECT 1" })).toBeUndefined();
    const a = preparedStatementName({ sql: "/* prepared */ SELECT 1" });
    expect(a).toMatch(/^fbo_[A-Za-z0-9_-]{32}$/);
    expect(preparedStatementName({ sql: "/* prepared */ SELECT 1" })).toBe(a);
    expect(preparedStatementName({ sql: "/* prepared */ SELECT 2" })).not.toBe(a);
  });

  it.runIf(testEngine() === "pglite")("an on-disk PGlite opens with 32MB of shared buffers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fbo-settings-"));
    try {
      const database = await connectDatabase({ engine: "pglite", dataDir: path.join(dir, "pglite") });
      try {
        const rows = await database.prisma.$queryRaw<Array<{ shared_buffers: string }>>`SHOW shared_buffers`;
        expect(rows[0]!.shared_buffers).toBe("32MB");
      } finally {
        await database.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
