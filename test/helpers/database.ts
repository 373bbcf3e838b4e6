// A fresh, migrated database for one test file, on the engine the project runs (TEST_DB).
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { connectDatabase, type TDatabase } from "../../server/db/client";
import { migrateDatabase } from "../../server/db/migrate";
import { pgliteTemplatePath } from "./pglite-template";
import { adminQuery, databaseUrl, templateName, uniqueDatabaseName } from "./postgres";

export type TTestDatabase = TDatabase & { engine: "pglite" | "postgres" };

export function testEngine(): "pglite" | "postgres" {
  return process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
}

export async function createTestDatabase(): Promise<TTestDatabase> {
  if (testEngine() === "postgres") {
    const name = uniqueDatabaseName();
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`);
    const database = await connectDatabase({ engine: "postgres", url: databaseUrl(name) });
    return {
      ...database,
      engine: "postgres",
      close: async () => {
        await database.close();
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  // The migrated template when the project's global setup made it (a file run alone without it
  // still works: it migrates). migrateDatabase then only confirms every migration is applied.
  const template = pgliteTemplatePath();
  const client = fs.existsSync(template)
    ? await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(template)]) })
    : await PGlite.create("memory://");
  await migrateDatabase({ engine: "pglite", client });
  const database = await connectDatabase({ engine: "pglite", client });
  return {
    ...database,
    engine: "pglite",
    close: async () => {
      await database.close();
      await client.close();
    },
  };
}
