// `npm run bench:fleet`: the figures of docs/scaling.md, measured on the fleet of scripts/fleet.mjs
// (through HAProxy) in a database of its own on the PostgreSQL server of BENCH_DATABASE_URL
// (default postgresql://postgres@127.0.0.1:5432/postgres), dropped afterwards:
//   - the REST and read benchmarks through HAProxy: two instances reading from the replica, one
//     instance (the other stopped), and two instances with the replica stopped (reads on the
//     primary);
//   - the rows one API write adds (every table's inserted tuples around 200 writes);
//   - the bytes per financial event (table and indexes, 100,000 rows copied in SQL from the
//     API's own rows), hence the size of a million events.
// Prints one JSON document and a table; `--duration=` (seconds, default 8), `--connections=` (10).
import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { startFleet } from "./fleet.mjs";

const { fetch } = globalThis;
const arg = (name, fallback) => Number(process.argv.find((item) => item.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const DURATION = arg("duration", 8);
const CONNECTIONS = arg("connections", 10);
const TOKEN = "fleet-bench-owner-token-0123456789";
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DATABASE = `fbo_fleet_bench_${Date.now()}`;

function databaseUrl(database) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function api(base, method, path, body, key) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body ? { "content-type": "application/json" } : {}),
      ...(key ? { "idempotency-key": key } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function load(url) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: DURATION, headers: { authorization: `Bearer ${TOKEN}` } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function measure(label, base, paths) {
  const rows = [];
  for (const [name, path] of Object.entries(paths)) {
    await load(`${base}${path}`.replace(/$/, "")).catch(() => {}); // warm-up
    const result = await load(`${base}${path}`);
    rows.push({
      setup: label,
      load: name,
      rps: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      non2xx: result.non2xx + result.errors,
    });
  }
  return rows;
}

async function main() {
  const fleet = await startFleet({
    primaryUrl: databaseUrl(DATABASE),
    basePort: Number(process.env.FLEET_PORT ?? 18600),
    output: "files",
    env: { AUTH_MODE: "static", STATIC_OWNER_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "warn" },
  });
  const primary = new pg.Client({ connectionString: databaseUrl(DATABASE) });
  await primary.connect();
  const results = { cores: os.cpus().length, load_average_at_start: os.loadavg().map((value) => value.toFixed(1)), runs: [] };
  try {
    const business = (await api(fleet.url, "POST", "/v1/businesses", { name: "Bench", currency: "EUR" }, "bench-business")).data
      .id;

    // Rows one API write adds, over every table (inserted tuples as PostgreSQL counts them).
    const inserted = async () => {
      await new Promise((resolve) => setTimeout(resolve, 700)); // the statistics collector's flush
      const { rows } = await primary.query(
        "SELECT coalesce(sum(n_tup_ins), 0)::bigint AS n FROM pg_stat_user_tables WHERE schemaname = 'public'",
      );
      return Number(rows[0].n);
    };
    const before = await inserted();
    const writes = 200;
    for (let index = 0; index < writes; index++) {
      await api(
        fleet.url,
        "POST",
        "/v1/expenses",
        {
          business_id: business,
          amount_minor: 1234,
          currency: "EUR",
          occurred_on: "2026-11-15",
          description: `bench ${index}`,
          counterparty: "Vendor",
        },
        `bench-${index}`,
      );
    }
    results.rows_per_api_write = Number((((await inserted()) - before) / writes).toFixed(2));

    // Bytes per financial event: 100,000 copies of the API's rows, table and indexes.
    const size = async () => Number((await primary.query("SELECT pg_total_relation_size('financial_events') AS n")).rows[0].n);
    const sizeBefore = await size();
    const { rows: columns } = await primary.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'financial_events' AND column_name <> 'id' AND is_generated = 'NEVER' ORDER BY ordinal_position",
    );
    const list = columns.map((column) => `"${column.column_name}"`).join(", ");
    // Copies keep every column but the id (and a description made unique, as real rows are).
    const select = columns
      .map((column) => (column.column_name === "description" ? `description || ' #' || g` : `"${column.column_name}"`))
      .join(", ");
    const copied = 100_000;
    await primary.query(
      `INSERT INTO financial_events (id, ${list})
       SELECT gen_random_uuid(), ${select} FROM generate_series(1, ${copied / writes}) g, financial_events e WHERE e.description LIKE 'bench %'`,
    );
    await primary.query("VACUUM ANALYZE financial_events");
    results.bytes_per_event = Math.round(((await size()) - sizeBefore) / copied);
    results.gb_per_million_events = Number(((results.bytes_per_event * 1e6) / 1024 ** 3).toFixed(2));

    const paths = {
      "rest GET /v1/businesses/{id}": `/v1/businesses/${business}`,
      "read GET /v1/businesses/{id}/financial-summary": `/v1/businesses/${business}/financial-summary`,
      "list GET /v1/events?limit=50": `/v1/events?business_id=${business}&limit=50`,
    };
    results.runs.push(...(await measure("2 instances, reads on the replica", fleet.url, paths)));
    await fleet.stopInstance(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    results.runs.push(...(await measure("1 instance, reads on the replica", fleet.url, paths)));
    await fleet.startInstance(1);
    await fleet.stopReplica();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    results.runs.push(...(await measure("2 instances, reads on the primary", fleet.url, paths)));
    results.load_average_at_end = os.loadavg().map((value) => value.toFixed(1));
  } finally {
    await primary.end();
    await fleet.stop();
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    await admin.end();
  }
  console.table(results.runs);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
