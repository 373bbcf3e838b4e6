// Benchmark "read": the read models' latency on a real ledger (issue #13, "Fast on a real
// ledger"). One owner with 3 businesses, 10 projects, 40 subscriptions and two years of events
// in 5 currencies, seeded by SQL (scripts/bench/read-seed.ts), first 100,000 events, then
// 1,000,000 (`--read-events=`; the full `npm run bench` runs 100,000 only unless asked). At each
// size, over HTTP on the running server, one request at a time (latency, not throughput), 10
// warm-up requests then `--read-requests=` (default 200) measured ones for each of:
//   financial summary   GET /v1/businesses/{id}/financial-summary (the largest business, default period)
//   forecast 90         GET /v1/forecast?horizon=90 (the whole owner)
//   free capital        GET /v1/free-capital (the whole owner)
//   overview            GET /v1/overview
//   daily brief         GET /v1/daily-brief (today, as known at its end)
//   daily brief, past   GET /v1/daily-brief?date=<30 days ago> (the voids and reconciliations since still count)
//   events first page   GET /v1/events
//   ads                 GET /v1/ads (the whole owner, default period)
//   business ads        GET /v1/businesses/{id}/ads (the largest business, default period)
//   project health      GET /v1/businesses/{id}/project-health (the largest business, default period)
//   business context    GET /v1/businesses/{id}/context (the largest business)
//   saas metrics        GET /v1/businesses/{id}/saas-metrics (the largest business: the default 30 days, and 366 days)
//   p&l 24 months       GET /v1/reports/profit-and-loss (the whole owner, the current month and the 23 before, by category)
//   cash history 24m    GET /v1/reports/cash-history (the whole owner, the same 24 months)
// Targets: p95 ≤ 50 ms at 100,000 events, ≤ 250 ms at 1,000,000 (this machine: 2 cores, the
// server and PostgreSQL on it). An operation the route table does not have yet (404, "No
// operation at …") is reported as "not built yet", not as an error. Each line also shows the
// machine's 1-minute load average while it was measured: latency on a shared machine includes
// the other work on its cores.
// The plans: every SELECT each operation runs, as EXPLAIN (ANALYZE, BUFFERS), in
// bench-results/read-plans.txt; the slowest statements' key lines in the report.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { addDays, addMonthsClamped, todayUtc } from "../../lib/days";
import { createPlanCapture, keyPlanLines, type TExplained } from "./read-plans";
import { seedPastPlanned, seedReadEvents, seedReadFixtures, type TReadLedger } from "./read-seed";
import type { TBenchContext, TBenchmark, TBenchOutcome } from "./types";

/** `--only=read`: both sizes. */
export const READ_EVENT_SIZES_ALONE = [100_000, 1_000_000];
/** The full `npm run bench`: the first size only (`--read-events=100000,1000000` adds the second). */
export const READ_EVENT_SIZES_IN_FULL_RUN = [100_000];
const WARMUP_REQUESTS = 10;
const CHUNK = 100_000;
/** One planned event of the past per this many bulk events. */
const PAST_PLANNED_EVERY = 200;

/** p95 targets (ms) by ledger size: the largest size not above the ledger's. */
const TARGETS: Array<{ events: number; p95_ms: number }> = [
  { events: 100_000, p95_ms: 50 },
  { events: 1_000_000, p95_ms: 250 },
];

export function readTarget(events: number): number {
  const fitting = TARGETS.filter((t) => t.events <= events).at(-1) ?? TARGETS[0]!;
  return fitting.p95_ms;
}

type TEndpoint = { name: string; path: (ledger: TReadLedger) => string };

const ENDPOINTS: TEndpoint[] = [
  { name: "financial summary", path: (l) => `/v1/businesses/${l.businessIds[0]}/financial-summary` },
  { name: "forecast 90", path: () => "/v1/forecast?horizon=90" },
  { name: "free capital", path: () => "/v1/free-capital" },
  { name: "overview", path: () => "/v1/overview" },
  { name: "daily brief", path: () => "/v1/daily-brief" },
  { name: "daily brief, past", path: () => `/v1/daily-brief?date=${addDays(todayUtc(), -30)}` },
  { name: "events first page", path: () => "/v1/events" },
  { name: "ads", path: () => "/v1/ads" },
  { name: "business ads", path: (l) => `/v1/businesses/${l.businessIds[0]}/ads` },
  { name: "project health", path: (l) => `/v1/businesses/${l.businessIds[0]}/project-health` },
  { name: "business context", path: (l) => `/v1/businesses/${l.businessIds[0]}/context` },
  { name: "saas metrics", path: (l) => `/v1/businesses/${l.businessIds[0]}/saas-metrics` },
  {
    name: "saas metrics 366d",
    path: (l) => `/v1/businesses/${l.businessIds[0]}/saas-metrics?from=${addDays(todayUtc(), -365)}`,
  },
  // Issue 36: the whole owner's 24 months (the current one and the 23 before), monthly by category.
  { name: "p&l 24 months", path: () => `/v1/reports/profit-and-loss?from=${monthsBack(23)}` },
  { name: "cash history 24m", path: () => `/v1/reports/cash-history?from=${monthsBack(23)}` },
];

/** The first day of the month `months` before the current one (UTC). */
function monthsBack(months: number): string {
  return addMonthsClamped(`${todayUtc().slice(0, 7)}-01`, -months);
}

type TLatency = {
  p50_ms: number;
  p95_ms: number;
  mean_ms: number;
  max_ms: number;
  requests: number;
  body_bytes: number;
  /** The 1-minute load average at the end of the measured requests (this machine: os.cpus().length cores). */
  load_1m: number;
};

type TEndpointResult =
  | ({ name: string; path: string; status: "measured"; target_p95_ms: number; pass: boolean } & TLatency)
  | { name: string; path: string; status: "not_built" }
  | { name: string; path: string; status: "error"; error: string };

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function get(ctx: TBenchContext, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${ctx.baseUrl}${path}`, { headers: { Authorization: `Bearer ${ctx.token}` }, signal: ctx.signal });
  return { status: res.status, text: await res.text() };
}

/** A route the route table does not know: the operation is not built yet. */
function isMissingRoute(status: number, text: string): boolean {
  if (status !== 404) return false;
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return body.error?.code === "not_found" && (body.error.message ?? "").startsWith("No operation at");
  } catch {
    return false;
  }
}

async function measureEndpoint(
  ctx: TBenchContext,
  endpoint: TEndpoint,
  ledger: TReadLedger,
  events: number,
): Promise<TEndpointResult> {
  const url = endpoint.path(ledger);
  const probe = await get(ctx, url);
  if (isMissingRoute(probe.status, probe.text)) return { name: endpoint.name, path: url, status: "not_built" };
  if (probe.status !== 200)
    return { name: endpoint.name, path: url, status: "error", error: `${probe.status}: ${probe.text.slice(0, 300)}` };
  for (let i = 0; i < WARMUP_REQUESTS; i++) await get(ctx, url);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ctx.read.requests; i++) {
    ctx.signal.throwIfAborted();
    const started = performance.now();
    const res = await get(ctx, url);
    times.push(performance.now() - started);
    if (res.status !== 200) {
      return {
        name: endpoint.name,
        path: url,
        status: "error",
        error: `request ${i + 1}: ${res.status}: ${res.text.slice(0, 300)}`,
      };
    }
    bytes = Buffer.byteLength(res.text);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const target = readTarget(events);
  const p95 = percentile(sorted, 95);
  return {
    name: endpoint.name,
    path: url,
    status: "measured",
    p50_ms: percentile(sorted, 50),
    p95_ms: p95,
    mean_ms: times.reduce((a, b) => a + b, 0) / times.length,
    max_ms: sorted.at(-1)!,
    requests: times.length,
    body_bytes: bytes,
    load_1m: os.loadavg()[0]!,
    target_p95_ms: target,
    pass: p95 <= target,
  };
}

async function eventCount(client: pg.Client, ownerId: string): Promise<number> {
  const result = await client.query<{ n: string }>("SELECT count(*) AS n FROM financial_events WHERE owner_id = $1", [ownerId]);
  return Number(result.rows[0]!.n);
}

/** Grows the ledger to `size` events (bulk stream plus past planned events), in chunks; then VACUUM ANALYZE. */
async function growTo(
  client: pg.Client,
  ledger: TReadLedger,
  today: string,
  size: number,
  next: { n: number },
  signal: AbortSignal,
) {
  const missing = size - (await eventCount(client, ledger.ownerId));
  if (missing <= 0) return;
  const planned = Math.floor(missing / (PAST_PLANNED_EVERY + 1));
  const bulk = missing - planned;
  const stream = { first: next.n, last: next.n + bulk - 1 };
  for (let done = 0; done < bulk; done += CHUNK) {
    signal.throwIfAborted();
    const take = Math.min(CHUNK, bulk - done);
    await seedReadEvents(client, ledger.ownerId, today, next.n, next.n + take - 1, stream);
    next.n += take;
    process.stdout.write(`\r  seeding: ${(done + take).toLocaleString("en-US")} of ${bulk.toLocaleString("en-US")} events`);
  }
  process.stdout.write("\n");
  await seedPastPlanned(client, ledger.ownerId, today, planned);
  // What autovacuum does to a ledger that filled over two years (statistics, the visibility map
  // index-only scans need), done now so that it does not start in the middle of a measurement.
  await client.query("VACUUM ANALYZE");
}

function fmt(ms: number): string {
  return ms.toFixed(1).padStart(8);
}

function reportLine(events: number, r: TEndpointResult): string {
  const head = `${events.toLocaleString("en-US").padStart(10)}  ${r.name.padEnd(18)}`;
  if (r.status === "not_built") return `${head}  not built yet (${r.path}: no route)`;
  if (r.status === "error") return `${head}  ERROR ${r.error}`;
  return `${head}${fmt(r.p50_ms)}${fmt(r.p95_ms)}${fmt(r.max_ms)}   ≤ ${String(r.target_p95_ms).padStart(3)}  ${r.pass ? "PASS" : "FAIL"}  (load ${r.load_1m.toFixed(1)})`;
}

function planSection(events: number, name: string, path: string, status: number, statements: TExplained[]): string {
  const out = [
    `=== ${events.toLocaleString("en-US")} events · ${name} · GET ${path} → ${status} · ${statements.length} SELECT(s), slowest first`,
  ];
  for (const s of statements) {
    out.push("", `--- ${s.ms.toFixed(2)} ms in the request, ${s.rows} row(s)`, s.sql.trim(), "", ...s.plan);
  }
  return `${out.join("\n")}\n\n`;
}

export const readBenchmark: TBenchmark = {
  name: "read",
  description: "read models' latency (p50/p95, one request at a time) on a SQL-seeded ledger of 100,000 and 1,000,000 events",
  describeLoad: (ctx) =>
    `one request at a time, ${WARMUP_REQUESTS} warm-up requests (not counted) then ${ctx.read.requests} measured per operation; ledger sizes ${ctx.read.eventSizes
      .map((n) => n.toLocaleString("en-US"))
      .join(", ")}`,
  async run(ctx): Promise<TBenchOutcome> {
    const errors: string[] = [];
    const sizes = [...ctx.read.eventSizes].sort((a, b) => a - b);
    const me = await get(ctx, "/v1/me"); // creates the static owner
    if (me.status !== 200) throw new Error(`GET /v1/me answered ${me.status}: ${me.text}`);
    const ownerId = (JSON.parse(me.text) as { data: { id: string } }).data.id;
    const today = todayUtc();
    const plansFile = path.join(ctx.resultsDir, "read-plans.txt");
    fs.writeFileSync(plansFile, `read benchmark query plans, ${new Date().toISOString()}, today ${today} (UTC)\n\n`);

    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    const capture = await createPlanCapture(ctx.databaseUrl, ctx.token);
    const lines: string[] = [];
    const planLines: string[] = [];
    const steps: Array<Record<string, unknown>> = [];
    try {
      let started = performance.now();
      const ledger = await seedReadFixtures(client, ownerId, today);
      const next = { n: 1 };
      console.log(`  fixtures: ${JSON.stringify(ledger.fixtures)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      for (const size of sizes) {
        started = performance.now();
        await growTo(client, ledger, today, size, next, ctx.signal);
        const seedS = (performance.now() - started) / 1000;
        const events = await eventCount(client, ownerId);
        console.log(
          `  ledger: ${events.toLocaleString("en-US")} events (seeded and vacuumed in ${seedS.toFixed(1)} s); measuring…`,
        );
        const results: TEndpointResult[] = [];
        for (const endpoint of ENDPOINTS) {
          const result = await measureEndpoint(ctx, endpoint, ledger, events);
          results.push(result);
          console.log(`  ${reportLine(events, result).trim()}`);
          if (result.status === "error") errors.push(`${events} events, ${result.name}: ${result.error}`);
          if (result.status === "not_built") continue;
          const explained = await capture.explain(result.path);
          fs.appendFileSync(plansFile, planSection(events, result.name, result.path, explained.status, explained.statements));
          const slowest = explained.statements.slice(0, 2);
          planLines.push(
            `${events.toLocaleString("en-US")} events · ${result.name}: ${explained.statements.length} SELECT(s), ` +
              `Σ execution ${explained.statements.reduce((a, s) => a + (s.executionMs ?? 0), 0).toFixed(1)} ms`,
          );
          for (const s of slowest) {
            planLines.push(`  ${s.sql.replace(/\s+/g, " ").trim().slice(0, 140)}`);
            for (const line of keyPlanLines(s.plan)) planLines.push(`    ${line}`);
          }
        }
        lines.push(...results.map((r) => reportLine(events, r)));
        steps.push({ events, seed_s: seedS, endpoints: results });
      }
    } finally {
      await capture.close().catch(() => undefined);
      await client.end();
    }

    const measured = steps.flatMap((s) => s.endpoints as TEndpointResult[]).filter((r) => r.status === "measured");
    const report = [
      `${"events".padStart(10)}  ${"operation".padEnd(18)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}${"max ms".padStart(8)}   target p95`,
      ...lines,
      `(load: the 1-minute load average at the end of each line, on ${os.cpus().length} cores; above that, requests wait for a core)`,
      "",
      "Query plans (EXPLAIN (ANALYZE, BUFFERS) of every SELECT, in full in bench-results/read-plans.txt); the two slowest of each operation:",
      ...planLines,
    ].join("\n");
    return {
      report,
      errors,
      results: {
        targets_p95_ms: TARGETS,
        requests_per_operation: ctx.read.requests,
        warmup_requests: WARMUP_REQUESTS,
        plans_file: "bench-results/read-plans.txt",
        met: measured.length > 0 && measured.every((r) => r.status === "measured" && r.pass),
        not_built: [
          ...new Set(
            steps.flatMap((s) => (s.endpoints as TEndpointResult[]).filter((r) => r.status === "not_built").map((r) => r.name)),
          ),
        ],
        steps,
      },
    };
  },
};
