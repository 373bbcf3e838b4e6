// `npx tsx scripts/state-checks-sql.ts`: prints the SQL adding the CHECK constraint of every
// status-like column in server/state-columns.ts (the one table the test reads too). Paste it
// into a migration; a column's changed array needs `ALTER TABLE … DROP CONSTRAINT …` first.
import { stateCheckSql } from "../server/state-columns";

process.stdout.write(
  "-- The status-like columns hold one of a fixed set (server/state-columns.ts, scripts/state-checks-sql.ts).\n" +
    stateCheckSql(),
);
