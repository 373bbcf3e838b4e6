// Benchmark "rest": the cost of the /v1 REST layer.
//   a. GET /v1/businesses/{id} with the owner's bearer: request id, contract headers, auth,
//      the database rate-limit counter, the procedure through tRPC's server-side caller, a database
//      read and the envelope;
//   b. GET /bench/bare/{id} (app/bench/bare/[id]/route.ts) on the same Next server: a constant
//      body of the same shape and size, no database, no auth;
//   c. GET /bench/bare-db/{id} (app/bench/bare-db/[id]/route.ts): the same JSON, read from the
//      same row with the same Prisma client, without the REST layer.
// Target: (a) keeps at least 50 % of the bare handler's throughput. Both ratios are reported:
// a/b includes the database read and PostgreSQL's CPU (on the same cores), a/c is the layer alone.
import { randomUUID } from "node:crypto";
import { loadErrors, measure, type TLoadSummary } from "./load";
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
  return [
    label.padEnd(30),
    s.requests_per_second.toFixed(0).padStart(10),
    s.latency_p50_ms.toFixed(1).padStart(9),
    s.latency_p99_ms.toFixed(1).padStart(9),
    String(s.non_2xx).padStart(8),
  ].join("");
}

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

    const common = {
      connections: ctx.connections,
      durationSeconds: ctx.durationSeconds,
      warmupSeconds: ctx.warmupSeconds,
      signal: ctx.signal,
    };
    console.log(`  a. full REST layer: GET ${fullUrl}`);
    const full = await measure({ ...common, url: fullUrl, headers: auth });
    console.log(`  b. bare handler:    GET ${bareUrl}`);
    const bare = await measure({ ...common, url: bareUrl });
    console.log(`  c. bare + same read: GET ${bareDbUrl}`);
    const bareDb = await measure({ ...common, url: bareDbUrl });

    const ratioOf = (base: TLoadSummary) =>
      base.requests_per_second > 0 ? full.requests_per_second / base.requests_per_second : 0;
    const ratio = ratioOf(bare);
    const ratioSameRead = ratioOf(bareDb);
    const pass = ratio >= TARGET_RATIO;
    const passSameRead = ratioSameRead >= TARGET_RATIO;
    const report = [
      `${"".padEnd(30)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"non-2xx".padStart(8)}`,
      row("a. GET /v1/businesses/{id}", full),
      row("b. GET /bench/bare/{id}", bare),
      row("c. GET /bench/bare-db/{id}", bareDb),
      `ratio a/b: ${(ratio * 100).toFixed(1)} %   a/c: ${(ratioSameRead * 100).toFixed(1)} %   body bytes a/b/c: ${fullBytes}/${bareBytes}/${bareDbBytes}`,
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
        full_rest_layer: { method: "GET", path: "/v1/businesses/{id}", body_bytes: fullBytes, ...full },
        bare_handler: { method: "GET", path: "/bench/bare/{id}", body_bytes: bareBytes, ...bare },
        bare_handler_same_read: { method: "GET", path: "/bench/bare-db/{id}", body_bytes: bareDbBytes, ...bareDb },
      },
    };
  },
};
