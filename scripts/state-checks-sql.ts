// `npx tsx scripts/state-checks-sql.ts [<table>.<column> …]`: prints the SQL adding the CHECK
// constraint of every status-like column in server/state-columns.ts (the one table the test reads
// too), or of the columns named. Paste it into a migration; a column's changed array needs
// `ALTER TABLE … DROP CONSTRAINT …` first.
import { STATE_COLUMNS, stateCheckSql } from "../server/state-columns";

const names = process.argv.slice(2);
const unknown = names.filter((name) => !STATE_COLUMNS.some((column) => `${column.table}.${column.column}` === name));
if (unknown.length > 0) {
  console.error(`Not in server/state-columns.ts: ${unknown.join(", ")}`);
  process.exit(2);
}
const columns =
  names.length === 0 ? STATE_COLUMNS : STATE_COLUMNS.filter((column) => names.includes(`${column.table}.${column.column}`));

process.stdout.write(
  "-- The status-like columns hold one of a fixed set (server/state-columns.ts, scripts/state-checks-sql.ts).\n" +
    stateCheckSql(columns),
);
