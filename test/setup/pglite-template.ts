// Global setup of the pglite project: the migrated PGlite data directory, dumped once per set of
// migrations (its name is their hash, as the PostgreSQL template's) to a tarball in the OS temp
// directory, which every test file then loads (test/helpers/database.ts). Creating a PGlite runs
// initdb inside WebAssembly; loading a dump skips it and the migrations: seconds per test file,
// on the one or two cores CI has. A run that finds the file reuses it; a missing one is written
// under a name of this run's own and renamed into place, so side-by-side runs never read half a file.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { migrateDatabase } from "../../server/db/migrate";
import { pgliteTemplatePath } from "../helpers/pglite-template";

export default async function setup(): Promise<void> {
  const file = pgliteTemplatePath();
  if (fs.existsSync(file)) return;
  const client = await PGlite.create("memory://");
  try {
    await migrateDatabase({ engine: "pglite", client });
    const dump = await client.dumpDataDir("none");
    const building = `${file}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(building, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(building, file);
  } finally {
    await client.close();
  }
}
