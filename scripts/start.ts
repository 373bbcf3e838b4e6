// `npm start`: validate the configuration, apply migrations, build the app when the build is
// missing or older than the sources, then serve it (scripts/serve.mjs: Next.js behind a server
// that records each request's socket address for the client IP). One command on a fresh clone.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { secureDataDir } from "../server/crypto/data-dir-secret";
import { describeTarget, targetFromEnv } from "../server/db/adapters";
import { migrateDatabase } from "../server/db/migrate";
import { getEnv } from "../server/env";

// Run Next with this Node directly (not through npx) so signals reach the server.
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

const SOURCES = [
  "app",
  "server",
  "components",
  "lib",
  "prisma",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "package.json",
  "next.config.mjs",
  "tsconfig.json",
  // Mounted by app/bench/ (the bench's bare routes).
  "scripts/bench/bare-routes.ts",
];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) {
    if (child === "node_modules" || child === "generated") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(source) <= builtAt);
}

async function main(): Promise<void> {
  const env = getEnv();
  // Secrets at rest: DATA_DIR 0700 and its key files 0600, also when an older start left them looser.
  secureDataDir(env.dataDir);
  const target = targetFromEnv(env);
  const { applied } = await migrateDatabase(target);
  console.log(
    applied.length
      ? `Applied ${applied.length} migration(s) to ${describeTarget(target)}`
      : `${describeTarget(target)} is up to date`,
  );

  if (!buildIsCurrent() && !process.argv.includes("--no-build")) {
    console.log("Building the app (first start, or sources changed)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  // `--prepare`: migrations and the build only (scripts/fleet.mjs starts the instances itself).
  if (process.argv.includes("--prepare")) return;

  // A bounded old-space heap: V8 otherwise lets garbage grow to gigabytes before collecting
  // (a 100,000-row import confirm peaked at 914 MB RSS unbounded, 454 MB with 320 MB).
  const heap = `--max-old-space-size=${env.SERVER_HEAP_MB}`;
  const serverEnv = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, heap].filter(Boolean).join(" ") };
  const serve = path.join(path.dirname(new URL(import.meta.url).pathname), "serve.mjs");
  const server = spawn(process.execPath, [serve], { stdio: "inherit", env: serverEnv });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
