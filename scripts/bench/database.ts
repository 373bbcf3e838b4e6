// A throw-away PostgreSQL database per run: created empty (the server migrates it), dropped
// at the end even if the server still holds connections.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_BENCH_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export type TBenchDatabase = { name: string; url: string; drop: () => Promise<void> };

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `adminUrl` names the server and a database to connect to for CREATE/DROP DATABASE. */
export async function createBenchDatabase(adminUrl = DEFAULT_BENCH_DATABASE_URL): Promise<TBenchDatabase> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    // Once: a second call (Ctrl-C during the clean-up) waits for the first.
    drop: () =>
      (dropping ??= withAdmin(adminUrl, async (client) => {
        // WITH (FORCE) (PostgreSQL 13+) ends the server's pooled connections if it is still up.
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      })),
  };
}
