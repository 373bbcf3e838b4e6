// Global setup of the postgres project: builds the migrated template database once.
import { migrateDatabase } from "../../server/db/migrate";
import { adminQuery, databaseUrl, templateName } from "../helpers/postgres";

export default async function setup(): Promise<void> {
  const name = templateName();
  const building = `${name}_building`;
  await adminQuery(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${building}`);
  await migrateDatabase({ engine: "postgres", url: databaseUrl(building) });
  await adminQuery(`ALTER DATABASE ${building} RENAME TO ${name}`);
}
