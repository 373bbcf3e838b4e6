// `npm run db:migration <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with
// the SQL that takes the existing migrations to prisma/schema.prisma, then regenerates the
// client. It replaces `prisma migrate dev`, which needs the native engine (notes/prisma-offline.md).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MIGRATIONS_DIR, SCHEMA_PATH } from "../server/db/migrate";
import { diffMigrationsToSchema, MIGRATION_LOCK_CONTENT, MIGRATION_LOCK_FILE } from "../server/db/schema-engine";

const USAGE = "Usage: npm run db:migration <name>   (letters, digits, spaces, '-' or '_'; e.g. add_invoices)";

/** "Add invoices" → "add_invoices"; undefined when nothing usable is left. */
function migrationSlug(raw: string | undefined): string | undefined {
  if (!raw || !/^[A-Za-z0-9 _-]+$/.test(raw)) return undefined;
  const slug = raw
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
  return /[a-z]/.test(slug) && slug.length <= 100 ? slug : undefined;
}

/** UTC YYYYMMDDHHMMSS, as Prisma names migrations. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function fromTimestamp(stamp: string): Date {
  const part = (from: number, to: number) => stamp.slice(from, to);
  return new Date(`${part(0, 4)}-${part(4, 6)}-${part(6, 8)}T${part(8, 10)}:${part(10, 12)}:${part(12, 14)}Z`);
}

/**
 * Now, or one second after the newest existing migration when that is not earlier (two runs
 * in one second, or a clock behind a teammate's): migrations apply in name order.
 */
function nextTimestamp(existing: string[]): string {
  const now = new Date();
  const newest = existing
    .map((name) => /^(\d{14})_/.exec(name)?.[1])
    .filter((stamp): stamp is string => stamp !== undefined)
    .sort()
    .at(-1);
  if (newest && newest >= timestamp(now)) return timestamp(new Date(fromTimestamp(newest).getTime() + 1000));
  return timestamp(now);
}

async function main(args: string[]): Promise<number> {
  const slug = args.length === 1 ? migrationSlug(args[0]) : undefined;
  if (!slug) {
    console.error(args.length === 0 ? "A migration name is required." : `Invalid migration name: ${args.join(" ")}`);
    console.error(USAGE);
    return 2;
  }

  const sql = await diffMigrationsToSchema({ migrationsDir: MIGRATIONS_DIR, schemaPath: SCHEMA_PATH });
  if (sql === "") {
    console.log("No schema changes: prisma/schema.prisma matches the existing migrations.");
    return 0;
  }

  fs.mkdirSync(MIGRATIONS_DIR, { recursive: true });
  const existing = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const name = `${nextTimestamp(existing)}_${slug}`;
  const dir = path.join(MIGRATIONS_DIR, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  const lockFile = path.join(MIGRATIONS_DIR, MIGRATION_LOCK_FILE);
  if (!fs.existsSync(lockFile)) fs.writeFileSync(lockFile, MIGRATION_LOCK_CONTENT);
  console.log(`Created ${path.relative(process.cwd(), path.join(dir, "migration.sql"))}`);

  const generate = fileURLToPath(new URL("./prisma-generate.mjs", import.meta.url));
  const projectRoot = fileURLToPath(new URL("..", import.meta.url));
  const result = spawnSync(process.execPath, [generate], { stdio: "inherit", cwd: projectRoot });
  if (result.status !== 0) {
    console.error("The migration was written, but regenerating the Prisma client failed.");
    return result.status ?? 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Creating the migration failed:\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
