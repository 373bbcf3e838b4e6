// Benchmark "ingest": the generic webhook's ingest throughput on PostgreSQL.
//   a. signed 500-event batches to POST /v1/webhooks/generic/{integration_id} (real HMAC, a
//      fresh timestamp per request), from BENCH_INGEST_SENDERS concurrent senders: the REST layer,
//      the signature check, validation, FX conversion, dedupe lookup, the events and their
//      audit entries, all through the running server;
//   b. the same rows as raw multi-row INSERTs (500 rows per statement) straight into
//      financial_events over `pg`, from the same number of concurrent clients, same run.
// The two take turns (--rounds, default 3; the rates add up the turns).
// Targets: (a) ≥ 10,000 events/s, and (a) ≥ 45 % of (b) (issue #12).
// Beside the rates, the CPU each event cost (µs: the server's Node process, PostgreSQL's
// backends, the load generator), which other work on the machine hardly moves.
import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { createCpuProbe, type TCpuReading } from "./cpu";
import type { TBenchContext, TBenchmark, TBenchOutcome } from "./types";

const BATCH = 500;
const TARGET_EVENTS_PER_S = 10_000;
const TARGET_RATIO = 0.45;
/**
 * Concurrent senders (each its own integration, as deliveries of one integration take turns)
 * and as many raw clients: BENCH_INGEST_SENDERS, default 2. Platforms deliver webhooks
 * concurrently, and two keep both of this machine's cores busy (the server's Node thread and
 * PostgreSQL); with one, each waits for the other. 3 measured the same as 2 here. Set it to 1
 * for the latency-bound figure of a single sender.
 */
const SENDERS = Math.max(1, Number(process.env.BENCH_INGEST_SENDERS) || 2);

type TSetup = { ownerId: string; businessId: string; integrationId: string; secret: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several operations, read field by field
async function api(ctx: TBenchContext, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${ctx.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json", "Idempotency-Key": randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/**
 * One generic integration per sender: deliveries of ONE integration take turns (the ingest
 * path locks the integration so a key seen twice is a repeat, never a duplicate), so
 * concurrency only means something across integrations.
 */
async function setup(ctx: TBenchContext, senders: number): Promise<TSetup[]> {
  const ownerId = (await api(ctx, "GET", "/v1/me")).data.id as string;
  // Business names are unique per owner: a kept database (--keep-database) already has earlier runs'.
  const businessId = (
    await api(ctx, "POST", "/v1/businesses", { name: `Ingest Bench ${new Date().toISOString()}`, currency: "EUR" })
  ).data.id as string;
  const setups: TSetup[] = [];
  for (let n = 0; n < senders; n++) {
    const body = { business_id: businessId, name: `bench ${n + 1}` };
    const connected = (await api(ctx, "POST", "/v1/integrations/generic/connect", body)).data;
    setups.push({ ownerId, businessId, integrationId: connected.integration_id, secret: connected.secret });
  }
  return setups;
}

/** A plausible revenue event; EUR against the owner's USD base, so every event is converted. */
function eventOf(integrationId: string, key: string, n: number) {
  return {
    integration_id: integrationId,
    external_id: key,
    type: "revenue",
    state: "actual",
    amount_minor: 1_000 + (n % 9_000),
    currency: "EUR",
    occurred_on: "2026-11-01",
    source_type: "IMPORT",
    category: "sales",
    description: `Order ${n}`,
    payload: { order_id: `ord_${n}`, channel: "web" },
  };
}

/**
 * The senders' HTTP client: node:http with keep-alive. With one sender the client's own CPU is on
 * the measured path, and fetch (undici) spent about 1 ms more per 150 KB request than node:http
 * on this machine: that is the load generator's cost, not the server's.
 */
const agent = new http.Agent({ keepAlive: true });

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", agent, signal, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function sendBatch(ctx: TBenchContext, s: TSetup, prefix: string, batch: number): Promise<number> {
  const events = Array.from({ length: BATCH }, (_, i) => eventOf(s.integrationId, `${prefix}-${batch}-${i}`, batch * BATCH + i));
  const body = JSON.stringify({ events });
  const signature = createHmac("sha256", s.secret).update(body).digest("hex");
  const res = await post(
    `${ctx.baseUrl}/v1/webhooks/generic/${s.integrationId}`,
    {
      "Content-Type": "application/json",
      "X-Service-Signature": `sha256=${signature}`,
      "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
    },
    body,
    ctx.signal,
  );
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text.slice(0, 300)}`);
  const data = (JSON.parse(res.text) as { data: { inserted: number; rejected: unknown[] } }).data;
  if (data.inserted !== BATCH)
    throw new Error(`webhook inserted ${data.inserted} of ${BATCH}: ${JSON.stringify(data.rejected).slice(0, 300)}`);
  return data.inserted;
}

/** Runs `worker` from `connections` loops until `seconds` have passed; answers rows written and elapsed seconds. */
async function drive(
  connections: number,
  seconds: number,
  signal: AbortSignal,
  worker: (loop: number, n: number) => Promise<number>,
): Promise<{ rows: number; elapsed: number; batches: number }> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let rows = 0;
  let batches = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, loop) => {
      for (let n = 0; performance.now() < deadline && !signal.aborted; n++) {
        // Not `rows += await …`: that reads `rows` before the await, so concurrent loops
        // overwrote each other's counts (two senders measured half their real rate).
        const written = await worker(loop, n);
        rows += written;
        batches++;
      }
    }),
  );
  return { rows, elapsed: (performance.now() - started) / 1000, batches };
}

type TTotal = { rows: number; elapsed: number; batches: number; cpu: TCpuReading; cpuRows: number };

const newTotal = (): TTotal => ({
  rows: 0,
  elapsed: 0,
  batches: 0,
  cpu: { server_us: 0, postgres_us: 0, client_us: 0 },
  cpuRows: 0,
});

/** Adds a turn to a load's totals (CPU kept as µs in all, divided at the end). */
function addTurn(total: TTotal, turn: { rows: number; elapsed: number; batches: number }, cpu: TCpuReading | undefined): void {
  total.rows += turn.rows;
  total.elapsed += turn.elapsed;
  total.batches += turn.batches;
  if (!cpu) return;
  total.cpuRows += turn.rows;
  total.cpu.server_us += cpu.server_us * turn.rows;
  total.cpu.postgres_us += cpu.postgres_us * turn.rows;
  total.cpu.client_us += cpu.client_us * turn.rows;
}

function cpuOf(total: TTotal): TCpuReading | undefined {
  if (total.cpuRows === 0) return undefined;
  const n = total.cpuRows;
  return { server_us: total.cpu.server_us / n, postgres_us: total.cpu.postgres_us / n, client_us: total.cpu.client_us / n };
}

function rawInsertSql(s: TSetup, prefix: string, batch: number): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = batch * BATCH + i;
    const e = eventOf(s.integrationId, `${prefix}-${batch}-${i}`, n);
    const base = values.length;
    values.push(
      randomUUID(),
      s.ownerId,
      s.businessId,
      e.amount_minor,
      Math.round(e.amount_minor * 1.0842),
      e.external_id,
      e.description,
      JSON.stringify({ source: { type: "IMPORT", integration_id: s.integrationId, external_id: e.external_id } }),
      JSON.stringify(e.payload),
    );
    const p = (k: number) => `$${base + k}`;
    tuples.push(
      `(${p(1)}, ${p(2)}, ${p(3)}, 'revenue', 'actual', 'confirmed', ${p(4)}, 'EUR', ${p(5)}, 'USD', 1.0842, '2026-11-01', 'mock', ` +
        `'2026-11-01', 'sales', ${p(7)}, 'IMPORT', '${s.integrationId}', ${p(6)}, ${p(6)}, ${p(8)}::jsonb, 1, ${p(9)}::jsonb, now())`,
    );
  }
  const text =
    "INSERT INTO financial_events (id, owner_id, business_id, type, state, status, amount_minor, currency, base_amount_minor, " +
    "base_currency, fx_rate, fx_as_of, fx_source, occurred_on, category, description, source_type, integration_id, external_id, " +
    `chain_external_id, provenance, confidence, payload, updated_at) VALUES ${tuples.join(", ")}`;
  return { text, values };
}

export const ingestBenchmark: TBenchmark = {
  name: "ingest",
  description: "signed 500-event batches to the generic webhook vs raw multi-row INSERTs of the same rows",
  async run(ctx): Promise<TBenchOutcome> {
    const senders = SENDERS;
    const setups = await setup(ctx, senders);
    const errors: string[] = [];

    const clients = await Promise.all(
      Array.from({ length: senders }, async () => {
        const client = new pg.Client({ connectionString: ctx.databaseUrl });
        await client.connect();
        return client;
      }),
    );
    const insert = async (loop: number, n: number, prefix: string) => {
      const sql = rawInsertSql(setups[loop]!, prefix, n);
      const result = await clients[loop]!.query(sql.text, sql.values);
      return result.rowCount ?? 0;
    };
    const cpuProbe = await createCpuProbe(ctx.serverPid, ctx.databaseUrl);
    // The two loads take turns (ctx.rounds), so a change of the machine's load during the run
    // touches both; each turn's ratio shows how far one figure can be trusted.
    const loads = {
      webhook: (turn: number, seconds: number) =>
        drive(senders, seconds, ctx.signal, (loop, n) => sendBatch(ctx, setups[loop]!, `hook${turn}`, n)),
      raw: (turn: number, seconds: number) => drive(senders, seconds, ctx.signal, (loop, n) => insert(loop, n, `raw${turn}`)),
    };
    const totals = { webhook: newTotal(), raw: newTotal() };
    const roundRatios: number[] = [];
    try {
      // Warm-up (not counted): the route, the server's pool, the first plans.
      await loads.webhook(-1, ctx.warmupSeconds);
      await loads.raw(-1, ctx.warmupSeconds);
      const turnSeconds = ctx.durationSeconds / ctx.rounds;
      for (let round = 0; round < ctx.rounds; round++) {
        const rates: Record<string, number> = {};
        for (const name of round % 2 ? (["raw", "webhook"] as const) : (["webhook", "raw"] as const)) {
          await cpuProbe.start();
          const turn = await loads[name](round, turnSeconds);
          addTurn(totals[name], turn, await cpuProbe.stop(turn.rows));
          rates[name] = turn.rows / turn.elapsed;
        }
        roundRatios.push(rates.webhook! / rates.raw!);
      }
    } finally {
      agent.destroy();
      await Promise.all(clients.map((c) => c.end()));
      await cpuProbe.close();
    }
    const webhook = totals.webhook;
    const raw = totals.raw;
    const webhookCpu = cpuOf(webhook);
    const rawCpu = cpuOf(raw);

    const webhookRate = webhook.rows / webhook.elapsed;
    const rawRate = raw.rows / raw.elapsed;
    const ratio = webhookRate / rawRate;
    const results = {
      batch_size: BATCH,
      senders,
      webhook: {
        events: webhook.rows,
        batches: webhook.batches,
        seconds: webhook.elapsed,
        events_per_second: webhookRate,
        cpu_per_event: webhookCpu,
      },
      raw_insert: {
        rows: raw.rows,
        statements: raw.batches,
        seconds: raw.elapsed,
        rows_per_second: rawRate,
        cpu_per_row: rawCpu,
      },
      ratio,
      ratio_by_round: roundRatios,
      targets: { events_per_second: TARGET_EVENTS_PER_S, ratio: TARGET_RATIO },
      met: webhookRate >= TARGET_EVENTS_PER_S && ratio >= TARGET_RATIO,
    };
    const us = (value: number | undefined) => (value === undefined ? "n/a" : value.toFixed(1)).padStart(8);
    const cpuColumns = (cpu: TCpuReading | undefined) => `${us(cpu?.server_us)}${us(cpu?.postgres_us)}${us(cpu?.client_us)}`;
    const report = [
      `${senders} sender(s), each its own integration; raw: ${senders} pg client(s)`,
      `${"".padEnd(34)}${"rows/s".padStart(10)}${"batches".padStart(10)}` +
        `${"server".padStart(8)}${"pg".padStart(8)}${"client".padStart(8)}  (CPU µs/event)`,
      `${"a. generic webhook (500/batch)".padEnd(34)}${webhookRate.toFixed(0).padStart(10)}${String(webhook.batches).padStart(10)}${cpuColumns(webhookCpu)}`,
      `${"b. raw multi-row INSERT (500)".padEnd(34)}${rawRate.toFixed(0).padStart(10)}${String(raw.batches).padStart(10)}${cpuColumns(rawCpu)}`,
      `a/b by round: ${roundRatios.map((r) => (r * 100).toFixed(1)).join(" / ")} %`,
      `a/b = ${(ratio * 100).toFixed(1)} %   targets: ≥ ${TARGET_EVENTS_PER_S} events/s and ≥ ${TARGET_RATIO * 100} % of raw: ${
        results.met ? "met" : "NOT met"
      }`,
    ].join("\n");
    return { results, report, errors };
  },
};
