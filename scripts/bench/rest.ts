// Benchmark "rest": the cost of the /v1 REST layer.
//   a. GET /v1/businesses/{id} with the owner's bearer: request id, contract headers, auth,
//      the database rate-limit counter, the procedure through tRPC's server-side caller, a database
//      read and the envelope;
//   b. GET /bench/bare/{id} (app/bench/bare/[id]/route.ts) on the same Next server: a constant
//      body of the same shape and size, no database, no auth;
//   c. GET /bench/bare-db/{id} (app/bench/bare-db/[id]/route.ts): the same JSON, read from the
//      same row with the same Prisma client, without the REST layer.
// The three take turns (--rounds, default 3), so a change of the machine's load during the run
// touches them all; the ratio a/b of each round shows how far one figure can be trusted.
// Target: (a) keeps at least 50 % of the bare handler's throughput. Both ratios are reported:
// a/b includes the database read and PostgreSQL's CPU (on the same cores), a/c is the layer alone.
// Beside them, the CPU each request cost (µs: the server's Node process, PostgreSQL's backends,
// the load generator), which other work on the machine hardly moves, unlike the throughputs:
// the server's a − c is the layer's own cost, and the totals' b/a what the ratio a/b tends to
// when the machine's cores are the bottleneck.
import { randomUUID } from "node:crypto";
import { createCpuProbe, totalUs } from "./cpu";
import { loadErrors, measureAlternating, type TLoadSummary } from "./load";
import type { TBenchContext, TBenchmark, TBenchOutcome } from "./types";

const TARGET_RATIO = 0.5;
const TARGET = "full REST layer ≥ 50 % of the bare handler's throughput";

async function createBusiness(ctx: TBenchContext): Promise<string> {
  const res = await fetch(`${ctx.baseUrl}/v1/businesses`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${ctx.token}`,
      "Idempotency-Key": randomUUID(),
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ name: "Bench Co", currency: "EUR" }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /v1/businesses answered ${res.status}: ${text}`);
  const id = (JSON.parse(text) as { data?: { id?: string } }).data?.id;
  if (!id) throw new Error(`POST /v1/businesses answered without data.id: ${text}`);
  return id;
}

/** One request before the load: both routes must answer 200, with bodies of comparable size. */
async function probe(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body || "(empty body)"}`);
  return Buffer.byteLength(body);
}

function row(label: string, s: TLoadSummary): string {
  const cpu = s.cpu_per_request;
  const us = (value: number | undefined) => (value === undefined ? "n/a" : value.toFixed(0)).padStart(8);
  return [
    label.padEnd(30),
    s.requests_per_second.toFixed(0).padStart(10),
    s.latency_p50_ms.toFixed(1).padStart(9),
    s.latency_p99_ms.toFixed(1).padStart(9),
    String(s.non_2xx).padStart(8),
    us(cpu?.server_us),
    us(cpu?.postgres_us),
    us(cpu?.client_us),
  ].join("");
}

/** b's CPU per request over a's (server + PostgreSQL + load generator): the CPU-bound ratio a/b. */
function cpuRatio(a: TLoadSummary, b: TLoadSummary): number | undefined {
  if (!a.cpu_per_request || !b.cpu_per_request) return undefined;
  return totalUs(b.cpu_per_request) / totalUs(a.cpu_per_request);
}

const percent = (ratio: number | undefined) => (ratio === undefined ? "n/a" : `${(ratio * 100).toFixed(1)} %`);

export const restBenchmark: TBenchmark = {
  name: "rest",
  description: "GET /v1/businesses/{id} (full REST layer) vs a bare Next route handler",
  async run(ctx): Promise<TBenchOutcome> {
    const id = await createBusiness(ctx);
    const auth = { Authorization: `Bearer ${ctx.token}` };
    const fullUrl = `${ctx.baseUrl}/v1/businesses/${id}`;
    const bareUrl = `${ctx.baseUrl}/bench/bare/${id}`;
    const bareDbUrl = `${ctx.baseUrl}/bench/bare-db/${id}`;
    const fullBytes = await probe(fullUrl, auth);
    const bareBytes = await probe(bareUrl, {});
    const bareDbBytes = await probe(bareDbUrl, {});

    console.log(`  a. full REST layer:  GET ${fullUrl}`);
    console.log(`  b. bare handler:     GET ${bareUrl}`);
    console.log(`  c. bare + same read: GET ${bareDbUrl}`);
    const cpuProbe = await createCpuProbe(ctx.serverPid, ctx.databaseUrl);
    let measured: Awaited<ReturnType<typeof measureAlternating<"a" | "b" | "c">>>;
    try {
      measured = await measureAlternating(
        { a: { url: fullUrl, headers: auth }, b: { url: bareUrl }, c: { url: bareDbUrl } },
        {
          connections: ctx.connections,
          durationSeconds: ctx.durationSeconds,
          warmupSeconds: ctx.warmupSeconds,
          rounds: ctx.rounds,
          signal: ctx.signal,
          cpuProbe,
        },
      );
    } finally {
      await cpuProbe.close();
    }
    const { a: full, b: bare, c: bareDb } = measured.summaries;
    // The ratio a/b of each round: how far one figure can be trusted on this machine.
    const roundRatios = measured.rounds.map((r) => (r.b > 0 ? r.a / r.b : 0));

    const ratioOf = (base: TLoadSummary) =>
      base.requests_per_second > 0 ? full.requests_per_second / base.requests_per_second : 0;
    const ratio = ratioOf(bare);
    const ratioSameRead = ratioOf(bareDb);
    const pass = ratio >= TARGET_RATIO;
    const passSameRead = ratioSameRead >= TARGET_RATIO;
    const layerUs =
      full.cpu_per_request && bareDb.cpu_per_request
        ? full.cpu_per_request.server_us - bareDb.cpu_per_request.server_us
        : undefined;
    const report = [
      `${"".padEnd(30)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"non-2xx".padStart(8)}` +
        `${"server".padStart(8)}${"pg".padStart(8)}${"client".padStart(8)}  (CPU µs/request)`,
      row("a. GET /v1/businesses/{id}", full),
      row("b. GET /bench/bare/{id}", bare),
      row("c. GET /bench/bare-db/{id}", bareDb),
      `ratio a/b: ${(ratio * 100).toFixed(1)} %   a/c: ${(ratioSameRead * 100).toFixed(1)} %   body bytes a/b/c: ${fullBytes}/${bareBytes}/${bareDbBytes}`,
      `a/b by round: ${roundRatios.map((r) => (r * 100).toFixed(1)).join(" / ")} %`,
      `CPU: the layer's own server cost (a − c) ${layerUs === undefined ? "n/a" : `${layerUs.toFixed(0)} µs`}/request; ` +
        `CPU-bound a/b ${percent(cpuRatio(full, bare))}, a/c ${percent(cpuRatio(full, bareDb))} (the totals' b/a, c/a)`,
      `${pass ? "PASS" : "FAIL"}: target ${TARGET}, against the constant body (b): ${(ratio * 100).toFixed(1)} %`,
      `${passSameRead ? "PASS" : "FAIL"}: target ${TARGET}, against the same read (c): ${(ratioSameRead * 100).toFixed(1)} %`,
    ].join("\n");

    return {
      report,
      errors: [
        ...loadErrors("a. full REST layer", full),
        ...loadErrors("b. bare handler", bare),
        ...loadErrors("c. bare handler, same read", bareDb),
      ],
      results: {
        target: TARGET,
        target_ratio: TARGET_RATIO,
        ratio,
        pass,
        ratio_same_read: ratioSameRead,
        pass_same_read: passSameRead,
        ratio_by_round: roundRatios,
        layer_server_cpu_us_per_request: layerUs,
        cpu_bound_ratio: cpuRatio(full, bare),
        cpu_bound_ratio_same_read: cpuRatio(full, bareDb),
        full_rest_layer: { method: "GET", path: "/v1/businesses/{id}", body_bytes: fullBytes, ...full },
        bare_handler: { method: "GET", path: "/bench/bare/{id}", body_bytes: bareBytes, ...bare },
        bare_handler_same_read: { method: "GET", path: "/bench/bare-db/{id}", body_bytes: bareDbBytes, ...bareDb },
      },
    };
  },
};
