// Global setup of the postgres project: the migrated template database, built once per set of
// migrations (its name is their hash) and reused by later runs. Runs side by side (two
// checkouts, a developer and CI on one server) share it without dropping it under each other:
// a missing template is built under a name of this run's own and renamed into place; if
// another run got there first, its copy is as good as ours, and ours is dropped.
import { randomBytes } from "node:crypto";
import { migrateDatabase } from "../../server/db/migrate";
import { adminQuery, databaseExists, databaseUrl, templateName } from "../helpers/postgres";

export default async function setup(): Promise<void> {
  const name = templateName();
  if (await databaseExists(name)) return;
  const building = `${name}_building_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${building}`);
  try {
    await migrateDatabase({ engine: "postgres", url: databaseUrl(building) });
    await adminQuery(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } catch (error) {
    await adminQuery(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    if (!(await databaseExists(name))) throw error;
  }
}
