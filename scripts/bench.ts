// `npm run bench`: performance benchmarks against the production server, on a throw-away
// PostgreSQL database. The runner owns the lifecycle (database, server, results); each
// benchmark is a module in scripts/bench/ and is listed in BENCHMARKS below.
//
//   npm run bench                      all benchmarks
//   npm run bench -- --only=rest       some of them (comma-separated names)
//   --duration=10 --warmup=2 --connections=10   load settings (defaults shown)
//   --read-events=100000,1000000      the read benchmark's ledger sizes; default: both with
//                                     --only=read, 100,000 alone in the full run (the million-event
//                                     step adds about 8 minutes, which would take the full run past 10)
//   --read-requests=200               its measured requests per operation and size
//   --rounds=3                         the compared loads (rest: a, b, c; ingest: webhook, raw) take
//                                      turns, each measured in this many slices of the duration
//   --keep-database                    the database is left for a look in psql (its URL is printed)
//   --profile                          the server's CPU is sampled (scripts/bench/cpu-profile.mjs): one
//                                      .cpuprofile of the whole run in bench-results/profiles/
//
// Environment: BENCH_DATABASE_URL (server + admin database for CREATE/DROP DATABASE, default
// postgresql://postgres@127.0.0.1:5432/postgres), BENCH_PORT (first port tried, default 3190).
// Results: bench-results/<name>.json. Exit code 0 when every benchmark ran without errors
// (a missed target is a result, not an error), 1 on errors, 130 when interrupted.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createBenchDatabase, DEFAULT_BENCH_DATABASE_URL, type TBenchDatabase } from "./bench/database";
import { importBenchmark } from "./bench/import";
import { ingestBenchmark } from "./bench/ingest";
import { READ_EVENT_SIZES_ALONE, READ_EVENT_SIZES_IN_FULL_RUN, readBenchmark } from "./bench/read";
import { restBenchmark } from "./bench/rest";
import { uploadBenchmark } from "./bench/upload";
import { findFreePort, killProcessGroup, sleep, startServer, type TRunningServer } from "./bench/server";
import type { TBenchContext, TBenchmark } from "./bench/types";

const BENCHMARKS: TBenchmark[] = [restBenchmark, ingestBenchmark, importBenchmark, uploadBenchmark, readBenchmark];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS_DIR = path.join(ROOT, "bench-results");

type TArgs = {
  only?: string[];
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  profile: boolean;
  keepDatabase: boolean;
  /** Undefined: the default for the selection (see the header). */
  readEventSizes?: number[];
  readRequests: number;
};

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = {
    duration: 10,
    warmup: 2,
    connections: 10,
    rounds: 3,
    profile: false,
    keepDatabase: false,
    readRequests: 200,
  };
  for (const arg of argv) {
    const [name, value = ""] = arg.split("=", 2) as [string, string?];
    const number = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number, got '${value}'`);
      return n;
    };
    if (name === "--only")
      args.only = value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (name === "--duration") args.duration = number();
    else if (name === "--warmup") args.warmup = number();
    else if (name === "--connections") args.connections = Math.max(1, Math.round(number()));
    else if (name === "--rounds") args.rounds = Math.max(1, Math.round(number()));
    else if (name === "--profile") args.profile = true;
    else if (name === "--keep-database") args.keepDatabase = true;
    else if (name === "--read-events") {
      args.readEventSizes = value.split(",").map((part) => {
        const n = Number(part.replace(/_/g, ""));
        if (!Number.isInteger(n) || n < 1_000)
          throw new Error(`--read-events needs sizes of at least 1000 events, got '${part}'`);
        return n;
      });
    } else if (name === "--read-requests") args.readRequests = Math.max(1, Math.round(number()));
    else {
      throw new Error(
        `Unknown argument ${arg} (known: --only=, --duration=, --warmup=, --connections=, --rounds=, --profile, --keep-database, --read-events=, --read-requests=)`,
      );
    }
  }
  return args;
}

function select(only: string[] | undefined): TBenchmark[] {
  if (!only) return BENCHMARKS;
  const unknown = only.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length) {
    throw new Error(`Unknown benchmark(s): ${unknown.join(", ")} (known: ${BENCHMARKS.map((b) => b.name).join(", ")})`);
  }
  return BENCHMARKS.filter((b) => only.includes(b.name));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const args = parseArgs(process.argv.slice(2));
  const benchmarks = select(args.only);

  const controller = new AbortController();
  let serverPid: number | undefined;
  let server: TRunningServer | undefined;
  let database: TBenchDatabase | undefined;
  let interruptedAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interruptedAt === undefined) {
      interruptedAt = Date.now();
      console.error(`\n${signal}: stopping the server and dropping the database (Ctrl-C again to hurry)…`);
      controller.abort(new Error(`interrupted by ${signal}`));
      return;
    }
    // One Ctrl-C reaches this process several times (the terminal's process group, plus the
    // relays of npm and tsx): only a later, deliberate one hurries the clean-up.
    if (Date.now() - interruptedAt < 2_000) return;
    console.error(`${signal} again: killing the server and dropping the database now`);
    if (serverPid !== undefined) killProcessGroup(serverPid, "SIGKILL");
    const drop = database?.drop() ?? Promise.resolve();
    void Promise.race([drop, sleep(5_000)]).finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const errors: string[] = [];
  try {
    database = await createBenchDatabase(process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL);
    console.log(`Database ${database.name} created`);

    const token = randomBytes(16).toString("hex");
    const port = await findFreePort(Number(process.env.BENCH_PORT) || 3190);
    console.log(`Starting the server on port ${port} (scripts/start.ts: migrate, build when stale, next start)…`);
    const serverStart = Date.now();
    server = await startServer({
      cwd: ROOT,
      port,
      readyPath: "/v1/openapi.json",
      readyTimeoutMs: 5 * 60_000,
      signal: controller.signal,
      env: {
        DATABASE_URL: database.url,
        AUTH_MODE: "static",
        STATIC_OWNER_TOKEN: token,
        // High enough never to trip, so the limiter's work is measured, not its 429s.
        RATE_LIMIT_PER_MINUTE: "100000000",
        LOG_LEVEL: "warn",
        BENCH_BARE_ROUTE: "1",
        // PostgreSQL needs an explicit key for secrets at rest (instances must share it).
        ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
        // Written when the server exits (it does on the runner's SIGTERM).
        ...(args.profile
          ? {
              NODE_OPTIONS: `--import=${path.join(ROOT, "scripts", "bench", "cpu-profile.mjs")}`,
              BENCH_PROFILE_DIR: path.join(RESULTS_DIR, "profiles"),
            }
          : {}),
      },
      onSpawn: (pid) => (serverPid = pid),
      onLine: (line) => console.log(`  [server] ${line}`),
    });
    console.log(`Server ready at ${server.baseUrl} after ${seconds(Date.now() - serverStart)}`);

    const ctx: TBenchContext = {
      baseUrl: server.baseUrl,
      databaseUrl: database.url,
      serverPid: serverPid!,
      token,
      durationSeconds: args.duration,
      warmupSeconds: args.warmup,
      connections: args.connections,
      rounds: args.rounds,
      signal: controller.signal,
      resultsDir: RESULTS_DIR,
      read: {
        eventSizes:
          args.readEventSizes ??
          (benchmarks.length === 1 && benchmarks[0] === readBenchmark ? READ_EVENT_SIZES_ALONE : READ_EVENT_SIZES_IN_FULL_RUN),
        requests: args.readRequests,
      },
    };
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    for (const benchmark of benchmarks) {
      console.log(`\n== ${benchmark.name}: ${benchmark.description}`);
      console.log(
        `   ${
          benchmark.describeLoad?.(ctx) ??
          `${args.connections} connections, pipelining 1, ${args.warmup} s warm-up (not counted), ${args.duration} s measured` +
            ` (compared loads in ${args.rounds} alternating rounds)`
        }`,
      );
      const benchStart = Date.now();
      try {
        const outcome = await benchmark.run(ctx);
        const file = path.join(RESULTS_DIR, `${benchmark.name}.json`);
        const record = {
          benchmark: benchmark.name,
          description: benchmark.description,
          measured_at: new Date(benchStart).toISOString(),
          elapsed_s: (Date.now() - benchStart) / 1000,
          environment: {
            node: process.version,
            platform: `${os.platform()} ${os.arch()}`,
            cpus: os.cpus().length,
            database: "PostgreSQL",
          },
          load: benchmark.describeLoad
            ? { description: benchmark.describeLoad(ctx) }
            : {
                connections: args.connections,
                pipelining: 1,
                warmup_s: args.warmup,
                duration_s: args.duration,
                rounds: args.rounds,
              },
          errors: outcome.errors,
          ...outcome.results,
        };
        fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
        console.log(`\n${outcome.report}`);
        for (const error of outcome.errors) console.error(`ERROR ${error}`);
        console.log(`Results: ${path.relative(ROOT, file)} (${seconds(Date.now() - benchStart)})`);
        errors.push(...outcome.errors.map((e) => `${benchmark.name}: ${e}`));
      } catch (error) {
        if (controller.signal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        console.error(`ERROR ${benchmark.name}: ${message}`);
        errors.push(`${benchmark.name}: ${message}`);
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`ERROR ${message}`);
      errors.push(message);
    }
  } finally {
    if (server) {
      await server.stop().catch((e: unknown) => console.error(`Could not stop the server: ${String(e)}`));
      console.log("Server stopped");
    }
    if (database && args.keepDatabase && interruptedAt === undefined) {
      console.log(`Database ${database.name} kept: ${database.url}`);
    } else if (database) {
      const name = database.name;
      await database
        .drop()
        .then(() => console.log(`Database ${name} dropped`))
        .catch((e: unknown) => console.error(`Could not drop database ${name}: ${String(e)}`));
    }
  }

  console.log(`\nTotal time ${seconds(Date.now() - startedAt)}`);
  if (interruptedAt !== undefined) return 130;
  if (errors.length) {
    console.error(`${errors.length} error(s): the figures above are not valid.`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
