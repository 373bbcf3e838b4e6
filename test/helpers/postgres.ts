// PostgreSQL for tests: a template database with the migrations applied once per set of
// migrations (test/setup/postgres-template.ts), and a fresh copy of it per test file.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return (found.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** Named after the migrations, so a changed migration gets a new template. */
export function templateName(): string {
  const hash = createHash("sha256");
  const dir = path.resolve("prisma/migrations");
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
    const file = path.join(dir, entry, "migration.sql");
    if (fs.existsSync(file)) hash.update(entry).update(fs.readFileSync(file));
  }
  return `fbo_template_${hash.digest("hex").slice(0, 16)}`;
}

export function uniqueDatabaseName(prefix = "fbo_test"): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}
