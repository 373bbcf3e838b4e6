// The migrations in prisma/migrations, created and applied through the WebAssembly schema
// engine, on real databases: in-memory PGlite and a throwaway PostgreSQL database.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TDatabaseTarget } from "./adapters";
import { MIGRATIONS_DIR, SCHEMA_PATH, migrateDatabase } from "./migrate";
import { applyMigrations, diffMigrationsToSchema } from "./schema-engine";
import { ADMIN_URL } from "../../test/helpers/postgres";

// PostgreSQL of the test machines (trust auth); each run works in a database of its own.
const POSTGRES_ADMIN_URL = ADMIN_URL;
const TIMEOUT = 60_000;

const migrationNames = fs
  .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

// A copy of the real migrations plus one that fails halfway: its first statement succeeds, its
// second names a missing table. Applied to an up-to-date database, only the broken one runs.
let brokenDir: string;
const BROKEN = "99991231235959_broken";

beforeAll(() => {
  brokenDir = fs.mkdtempSync(path.join(os.tmpdir(), "broken-migrations-"));
  fs.cpSync(MIGRATIONS_DIR, brokenDir, { recursive: true });
  fs.mkdirSync(path.join(brokenDir, BROKEN));
  fs.writeFileSync(
    path.join(brokenDir, BROKEN, "migration.sql"),
    'CREATE TABLE "half_applied" ("id" INTEGER);\nALTER TABLE "no_such_table" ADD COLUMN "x" INTEGER;\n',
  );
});

afterAll(() => {
  fs.rmSync(brokenDir, { recursive: true, force: true });
});

type TQuery = <R extends Record<string, unknown>>(sql: string) => Promise<R[]>;

/** The same checks on both engines: apply, re-apply, then a broken migration. */
async function checkApplyAndFailure(target: TDatabaseTarget, query: TQuery): Promise<void> {
  const first = await migrateDatabase(target);
  expect(first.applied).toEqual(migrationNames);

  // The tables exist (empty) and Prisma's own history table records every migration as done.
  expect(await query<{ n: number }>("SELECT count(*)::int AS n FROM owners")).toEqual([{ n: 0 }]);
  const history = await query<{ migration_name: string; done: boolean }>(
    `SELECT migration_name, finished_at IS NOT NULL AND rolled_back_at IS NULL AS done
       FROM _prisma_migrations ORDER BY migration_name`,
  );
  expect(history).toEqual(migrationNames.map((name) => ({ migration_name: name, done: true })));

  expect((await migrateDatabase(target)).applied).toEqual([]);

  // A failing migration throws with PostgreSQL's reason, and leaves nothing half done: the
  // script runs as one implicit transaction.
  await expect(applyMigrations({ target, migrationsDir: brokenDir })).rejects.toThrow(/no_such_table/);
  expect(await query<{ t: string | null }>("SELECT to_regclass('half_applied')::text AS t")).toEqual([{ t: null }]);
  expect(
    await query<{ finished: boolean }>(
      `SELECT finished_at IS NOT NULL AS finished FROM _prisma_migrations WHERE migration_name = '${BROKEN}'`,
    ),
  ).toEqual([{ finished: false }]);
  // Later runs refuse until the failure is resolved, as `prisma migrate deploy` does.
  await expect(applyMigrations({ target, migrationsDir: brokenDir })).rejects.toThrow(/failed migrations/);
}

/**
 * A database one migration behind, with a row in it: applying the last migration leaves the
 * filled tables vacuumed and analyzed (schema-engine.ts refreshPlannerFacts: a rewritten table
 * would otherwise keep an empty visibility map), and the empty ones untouched.
 */
async function checkPlannerFactsAfterMigrating(target: TDatabaseTarget, query: TQuery): Promise<void> {
  const behindDir = fs.mkdtempSync(path.join(os.tmpdir(), "behind-migrations-"));
  try {
    fs.cpSync(MIGRATIONS_DIR, behindDir, { recursive: true });
    fs.rmSync(path.join(behindDir, migrationNames.at(-1)!), { recursive: true });
    await migrateDatabase(target, { migrationsDir: behindDir });
    await query(
      `INSERT INTO owners (id, email, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', 'facts@example.com', now())`,
    );
    const facts = () =>
      query<{ relname: string; visible: number; tuples: number }>(
        `SELECT relname, relallvisible AS visible, reltuples::int AS tuples FROM pg_class
          WHERE relname IN ('owners', 'businesses') AND relkind = 'r' ORDER BY relname`,
      );
    expect((await facts()).find((t) => t.relname === "owners")?.visible).toBe(0);
    expect((await migrateDatabase(target)).applied).toEqual([migrationNames.at(-1)]);
    expect(await facts()).toEqual([
      { relname: "businesses", visible: 0, tuples: expect.any(Number) },
      { relname: "owners", visible: 1, tuples: 1 },
    ]);
  } finally {
    fs.rmSync(behindDir, { recursive: true, force: true });
  }
}

describe("migrations", () => {
  it("has at least one migration and a lock file", () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(MIGRATIONS_DIR, "migration_lock.toml"), "utf8")).toContain('provider = "postgresql"');
  });

  it(
    "produce exactly what schema.prisma describes",
    async () => {
      expect(await diffMigrationsToSchema({ migrationsDir: MIGRATIONS_DIR, schemaPath: SCHEMA_PATH })).toBe("");
    },
    TIMEOUT,
  );

  it(
    "apply on PGlite, once, and fail loudly",
    async () => {
      const client = await PGlite.create("memory://");
      try {
        await checkApplyAndFailure({ engine: "pglite", client }, async <R>(sql: string) => (await client.query<R>(sql)).rows);
      } finally {
        await client.close();
      }
    },
    TIMEOUT,
  );

  it(
    "vacuum and analyze the tables that hold rows once they applied, on both engines",
    async () => {
      const client = await PGlite.create("memory://");
      try {
        await checkPlannerFactsAfterMigrating(
          { engine: "pglite", client },
          async <R>(sql: string) => (await client.query<R>(sql)).rows,
        );
      } finally {
        await client.close();
      }
      await withPostgresDatabase((url, query) => checkPlannerFactsAfterMigrating({ engine: "postgres", url }, query));
    },
    TIMEOUT,
  );

  it(
    "apply on PostgreSQL, once, and fail loudly",
    async () => {
      await withPostgresDatabase((url, query) => checkApplyAndFailure({ engine: "postgres", url }, query));
    },
    TIMEOUT,
  );
});

/** A throwaway PostgreSQL database, dropped afterwards. */
async function withPostgresDatabase(work: (url: string, query: TQuery) => Promise<void>): Promise<void> {
  const database = `mig_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await work(url.toString(), async <R extends Record<string, unknown>>(sql: string) => (await client.query<R>(sql)).rows);
    } finally {
      await client.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}
