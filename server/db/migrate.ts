// Brings a database to the schema of prisma/migrations. Used by `npm run db:migrate`, the start
// script and tests; it must run before the app opens the database (PGlite allows one process).
import { fileURLToPath } from "node:url";
import type { TDatabaseTarget } from "./adapters";
import { applyMigrations } from "./schema-engine";

/** prisma/migrations, found from this file so scripts work from any working directory. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
export const SCHEMA_PATH = fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url));

/**
 * Applies the migrations the target has not recorded yet and returns their names (empty when
 * it is up to date). Throws when one fails; the failure stays recorded in `_prisma_migrations`
 * and later runs refuse to continue until it is resolved.
 */
export async function migrateDatabase(
  target: TDatabaseTarget,
  options: { migrationsDir?: string } = {},
): Promise<{ applied: string[] }> {
  return applyMigrations({ target, migrationsDir: options.migrationsDir ?? MIGRATIONS_DIR });
}
