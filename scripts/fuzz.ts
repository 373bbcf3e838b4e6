// `npm run fuzz`: the seeded fuzzer of test/helpers/fuzz.ts against the real REST handler, in
// process, on both engines (a fresh PGlite in memory, and a throw-away PostgreSQL database).
// Prints, per engine: requests, answers by status, 5xx, refused requests that wrote a row,
// the time, and the findings grouped with a reproducer. Exit code 1 on any finding.
//
//   npm run fuzz                                    10,000 requests per engine, a random seed
//   npm run fuzz -- --requests=20000 --seed=42      replays seed 42
//   --engines=pglite (or postgres)                  one engine only
//
// Environment: FUZZ_DATABASE_URL (PostgreSQL admin URL, default TEST_DATABASE_URL or
// postgresql://postgres@127.0.0.1:5432/postgres).
import { PGlite } from "@electric-sql/pglite";
import { connectDatabase } from "../server/db/client";
import { migrateDatabase } from "../server/db/migrate";
import { createTestApi } from "../test/helpers/api";
import type { TTestDatabase } from "../test/helpers/database";
import { createFuzzWorld, describeFindings, FUZZ_ENV, runFuzz, type TFuzzReport } from "../test/helpers/fuzz";
import { adminQuery, uniqueDatabaseName } from "../test/helpers/postgres";

type TEngine = "pglite" | "postgres";
type TArgs = { requests: number; seed: number; engines: TEngine[] };

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = { requests: 10_000, seed: Math.floor(Math.random() * 2 ** 31), engines: ["pglite", "postgres"] };
  for (const arg of argv) {
    const [name, value = ""] = arg.split("=", 2) as [string, string?];
    const integer = () => {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} needs a whole number, got '${value}'`);
      return n;
    };
    if (name === "--requests") args.requests = integer();
    else if (name === "--seed") args.seed = integer();
    else if (name === "--engines") {
      const engines = value.split(",").map((s) => s.trim());
      if (engines.some((e) => e !== "pglite" && e !== "postgres")) throw new Error("--engines takes pglite, postgres or both");
      args.engines = engines as TEngine[];
    } else throw new Error(`Unknown argument ${arg} (known: --requests=, --seed=, --engines=)`);
  }
  return args;
}

const ADMIN_URL = process.env.FUZZ_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

async function openDatabase(engine: TEngine): Promise<TTestDatabase> {
  if (engine === "pglite") {
    const client = await PGlite.create("memory://");
    await migrateDatabase({ engine: "pglite", client });
    const database = await connectDatabase({ engine: "pglite", client });
    return {
      ...database,
      engine,
      close: async () => {
        await database.close();
        await client.close();
      },
    };
  }
  if (ADMIN_URL) process.env.TEST_DATABASE_URL = ADMIN_URL;
  const name = uniqueDatabaseName("fbo_fuzz");
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${name}`;
  await migrateDatabase({ engine: "postgres", url: url.toString() });
  const database = await connectDatabase({ engine: "postgres", url: url.toString() });
  return {
    ...database,
    engine,
    close: async () => {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function fuzzEngine(engine: TEngine, args: TArgs): Promise<TFuzzReport> {
  const database = await openDatabase(engine);
  const api = await createTestApi({ env: FUZZ_ENV, database });
  try {
    const world = await createFuzzWorld(api);
    return await runFuzz(api, world, {
      requests: args.requests,
      seed: args.seed,
      progress: (done) => process.stdout.write(`  ${engine}: ${done} requests\r`),
    });
  } finally {
    await api.close();
  }
}

function print(engine: TEngine, report: TFuzzReport): void {
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ");
  console.log(`\n${engine}`);
  console.log(`  requests                        ${report.requests} over ${Object.keys(report.byOperation).length} operations`);
  console.log(`  by status                       ${statuses}`);
  console.log(`  5xx                             ${report.serverErrors}`);
  console.log(`  refused (4xx)                   ${report.refused}`);
  console.log(`  refused requests that wrote     ${report.refusedWithWrites}`);
  console.log(`  4xx without the error body      ${report.findings.filter((f) => f.kind === "error_body").length}`);
  console.log(`  time                            ${(report.ms / 1000).toFixed(1)} s`);
  if (report.findings.length > 0) console.log(describeFindings(report, 40).replace(/^/gm, "  "));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  console.log(`fuzz: ${args.requests} requests per engine, seed ${args.seed} (replay: npm run fuzz -- --seed=${args.seed})`);
  let failed = false;
  for (const engine of args.engines) {
    const report = await fuzzEngine(engine, args);
    print(engine, report);
    failed ||= report.findings.length > 0;
  }
  console.log(failed ? `\nFAILED: replay with --seed=${args.seed}` : "\nOK: no 5xx, every 4xx well-formed, no refused write");
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
