// The Prisma client of the process, created lazily (so `next build` never opens the
// embedded database) and once (PGlite allows one connection).
import { getEnv } from "../env";
import { openTarget, targetFromEnv, type TDatabaseTarget } from "./adapters";
import { PrismaClient } from "./generated/client";

export type TDb = PrismaClient;
/** The transaction client handed to `db.$transaction(async (tx) => …)`. */
export type TTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type TDbOrTx = TDb | TTx;

export type TDatabase = { prisma: PrismaClient; target: TDatabaseTarget; close: () => Promise<void> };

export async function connectDatabase(target: TDatabaseTarget): Promise<TDatabase> {
  const opened = await openTarget(target);
  const prisma = new PrismaClient({ adapter: opened.factory });
  return {
    prisma,
    target,
    close: async () => {
      await prisma.$disconnect();
      await opened.close();
    },
  };
}

const globalForDb = globalThis as unknown as { appDatabase?: Promise<TDatabase> };

/** The process-wide database (from DATABASE_URL / DATA_DIR). */
export function getDatabase(): Promise<TDatabase> {
  globalForDb.appDatabase ??= connectDatabase(targetFromEnv(getEnv()));
  return globalForDb.appDatabase;
}

/** Lets tests (and scripts) install the database the app should use. */
export function setDatabase(database: TDatabase | undefined): void {
  globalForDb.appDatabase = database ? Promise.resolve(database) : undefined;
}
