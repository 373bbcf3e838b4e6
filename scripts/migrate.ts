// `npm run db:migrate`: applies prisma/migrations to the database of the environment
// (DATABASE_URL, or the embedded PGlite database under DATA_DIR when it is unset).
import { describeTarget, targetFromEnv, type TDatabaseTarget } from "../server/db/adapters";
import { migrateDatabase } from "../server/db/migrate";
import { getEnv } from "../server/env";

let target: TDatabaseTarget | undefined;
try {
  target = targetFromEnv(getEnv());
  const started = performance.now();
  const { applied } = await migrateDatabase(target);
  const took = `${Math.round(performance.now() - started)} ms`;
  if (applied.length === 0) {
    console.log(`Database is up to date (${describeTarget(target)}, ${took})`);
  } else {
    for (const name of applied) console.log(`Applied migration ${name}`);
    console.log(`${applied.length} migration(s) applied to ${describeTarget(target)} in ${took}`);
  }
  // Exit at once: nothing is left to do, and a lingering pool or timer must not hold `npm run dev`.
  process.exit(0);
} catch (error) {
  const where = target ? ` on ${describeTarget(target)}` : "";
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Migration failed${where}:\n${message}`);
  if (/failed migrations/.test(message)) {
    // `prisma migrate resolve` needs the native engine; this is what its --rolled-back does.
    // A failed script left nothing behind: each migration runs as one transaction.
    console.error(
      "\nFix or replace the failed migration, then mark it rolled back and run this again:\n" +
        "  UPDATE _prisma_migrations SET rolled_back_at = now() WHERE finished_at IS NULL AND rolled_back_at IS NULL;",
    );
  }
  process.exit(1);
}
