// Readiness for a load balancer (scripts/serve.mjs answers GET /readyz with it; /livez only says
// the process is up). Ready means: the database answers within 2.5 s, and it holds every
// migration this build ships, none of them still running or failed. While the instance drains
// (SIGTERM), serve.mjs answers not ready before asking this.
import fs from "node:fs";
import path from "node:path";
import { getDatabase } from "../db/client";

export type TReadiness = { ready: boolean; reason?: string };

const DB_TIMEOUT_MS = 2500;
/** A result is reused this long: checks from a balancer (every second) cost one query a second at most. */
const CACHE_MS = 1000;

let cached: { at: number; result: Promise<TReadiness> } | null = null;

function shippedMigrations(): number {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).length;
  } catch {
    return 0;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function check(): Promise<TReadiness> {
  try {
    const { prisma, target } = await withTimeout(getDatabase(), DB_TIMEOUT_MS, "opening the database");
    if (target.engine !== "postgres") {
      await withTimeout(prisma.$queryRawUnsafe("SELECT 1"), DB_TIMEOUT_MS, "the database");
      return { ready: true };
    }
    const [row] = await withTimeout(
      prisma.$queryRawUnsafe<{ applied: bigint; unfinished: bigint }[]>(
        `SELECT count(*) FILTER (WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied,
                count(*) FILTER (WHERE finished_at IS NULL AND rolled_back_at IS NULL) AS unfinished
           FROM _prisma_migrations`,
      ),
      DB_TIMEOUT_MS,
      "the database",
    );
    if (Number(row?.unfinished ?? 0) > 0) return { ready: false, reason: "migrating" };
    if (Number(row?.applied ?? 0) < shippedMigrations()) return { ready: false, reason: "migrations pending" };
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: `no database: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
}

export function readiness(): Promise<TReadiness> {
  const now = Date.now();
  if (!cached || now - cached.at > CACHE_MS) cached = { at: now, result: check() };
  return cached.result;
}
