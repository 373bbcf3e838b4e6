// The fleet test (issue 38, `npm run test:fleet`): the whole fleet of scripts/fleet.mjs (primary,
// pg_basebackup replica, PgBouncer, two instances, HAProxy) on the PostgreSQL server of
// TEST_DATABASE_URL, in a database of its own, driven through HAProxy as a client would:
//   - read-your-writes across instances, the reads served by the replica;
//   - kill -9 of an instance in the middle of idempotent writes, retried with their keys: each
//     write exists exactly once;
//   - both instances restarted one by one under load: no failed request;
//   - the replica stopped: reads fall back to the primary;
//   - a cron job on both instances: each slot runs once;
//   - the metrics: on loopback ports, not through HAProxy.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFleet, type TFleet } from "../../scripts/fleet.mjs";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DATABASE = `fbo_fleet_${Date.now()}_${process.pid}`;
const TOKEN = "fleet-test-owner-token-0123456789";
const BASE_PORT = Number(process.env.FLEET_TEST_PORT ?? 18400);

let fleet: TFleet;
let primary: pg.Client;
let businessId: string;

function databaseUrl(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

type TAnswer = { status: number; body: Record<string, unknown> | null; error?: string };

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TAnswer> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  } catch (error) {
    return {
      status: 0,
      body: null,
      error: error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error),
    };
  }
}

const instance = (index: number) => `http://127.0.0.1:${fleet.ports.apps[index]}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expense(description: string) {
  return { business_id: businessId, amount_minor: 100, currency: "EUR", occurred_on: "2026-12-01", description };
}

async function metricValue(index: number, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(fleet.metricsUrl(index))).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      total += Number(line.split(" ").pop());
  }
  return total;
}

/** Every cron slot of daily-brief every minute (pg-boss keeps schedules in its table; instances write theirs at start). */
async function everyMinute(): Promise<void> {
  await primary.query("UPDATE pgboss.schedule SET cron = '* * * * *' WHERE name = 'daily-brief'");
}

let scheduledSince: Date;

beforeAll(async () => {
  fleet = await startFleet({
    primaryUrl: databaseUrl(DATABASE),
    basePort: BASE_PORT,
    output: "files",
    keepDir: process.env.FLEET_KEEP_DIR === "1",
    env: {
      AUTH_MODE: "static",
      STATIC_OWNER_TOKEN: TOKEN,
      RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
    },
  });
  primary = new pg.Client({ connectionString: databaseUrl(DATABASE) });
  await primary.connect();
  await everyMinute();
  scheduledSince = new Date();
  const create = () =>
    call(fleet.url, "POST", "/v1/businesses", { name: "Fleet", currency: "EUR" }, { "idempotency-key": "fleet-business" });
  let created = await create();
  // HAProxy may still be confirming its servers (rise 2): the same key, until one takes it.
  for (let tries = 0; created.status === 503 && tries < 60; tries++) {
    await sleep(500);
    created = await create();
  }
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  businessId = (created.body!.data as { id: string }).id;
});

afterAll(async () => {
  await primary?.end();
  await fleet?.stop();
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await admin.end();
});

describe("the fleet", () => {
  it("answers liveness and readiness, and keeps its metrics off the public port", async () => {
    expect((await call(fleet.url, "GET", "/livez")).status).toBe(200);
    expect((await call(fleet.url, "GET", "/readyz")).body).toEqual({ ready: true });
    expect((await call(fleet.url, "GET", "/metrics")).status).toBe(404);
    expect((await call(instance(0), "GET", "/v1/businesses")).status).toBe(200);
    const text = await (await fetch(fleet.metricsUrl(0))).text();
    expect(text).toMatch(/fbo_http_requests_total\{operation="[^"]+",method="GET",status="200"\} \d+/);
    expect(text).toMatch(/fbo_http_request_duration_seconds_bucket\{[^}]*le="0.1"\} \d+/);
    expect(text).toMatch(/fbo_db_pool_connections\{pool="127.0.0.1:\d+\/fbo_fleet_[^"]+",state="in_use"\} \d+/);
    expect(text).toMatch(/fbo_replica_lag_seconds [\d.]+/);
    expect(text).toMatch(/fbo_job_queue_depth\{queue="[^"]+",state="waiting"\} \d+/);
  });

  it("reads an owner's write on the other instance, from the replica, never older than the write", async () => {
    const replicaBefore =
      (await metricValue(0, "fbo_reads_total", { target: "replica" })) +
      (await metricValue(1, "fbo_reads_total", { target: "replica" }));
    for (let round = 0; round < 30; round++) {
      const [writer, reader] = round % 2 === 0 ? [0, 1] : [1, 0];
      const written = await call(instance(writer), "POST", "/v1/expenses", expense(`ryw-${round}`), {
        "idempotency-key": `ryw-${round}`,
      });
      expect(written.status, JSON.stringify(written.body)).toBe(201);
      const id = (written.body!.data as { id: string }).id;
      const read = await call(instance(reader), "GET", `/v1/events/${id}`);
      expect(read.status, `round ${round}: ${JSON.stringify(read.body)}`).toBe(200);
      const list = await call(fleet.url, "GET", `/v1/events?business_id=${businessId}&limit=200`);
      expect(list.status).toBe(200);
      expect((list.body!.data as { id: string }[]).map((event) => event.id)).toContain(id);
    }
    const replicaAfter =
      (await metricValue(0, "fbo_reads_total", { target: "replica" })) +
      (await metricValue(1, "fbo_reads_total", { target: "replica" }));
    expect(replicaAfter - replicaBefore).toBeGreaterThan(30);
  });

  it("keeps every idempotent write exactly once when an instance is killed with -9 in the middle", async () => {
    const writes = 120;
    let done = 0;
    let retried = 0;
    const write = async (index: number) => {
      const started = Date.now();
      for (;;) {
        const answer = await call(fleet.url, "POST", "/v1/expenses", expense(`kill-${index}`), {
          "idempotency-key": `kill-${index}`,
        });
        if (answer.status === 201) break;
        // The connection died with the instance (0, 502), or the key's first attempt still runs (409).
        expect([0, 409, 502, 503, 504], JSON.stringify(answer)).toContain(answer.status);
        expect(Date.now() - started).toBeLessThan(60_000);
        retried += 1;
        await sleep(100);
      }
      done += 1;
    };
    const queue = Array.from({ length: writes }, (_, index) => index);
    const workers = Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await write(next);
    });
    while (done < 30) await sleep(10);
    await fleet.stopInstance(0, "SIGKILL");
    await Promise.all(workers);
    const { rows } = await primary.query<{ description: string; n: string }>(
      "SELECT description, count(*) AS n FROM financial_events WHERE description LIKE 'kill-%' GROUP BY description",
    );
    expect(rows).toHaveLength(writes);
    expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
    console.log(`kill -9: ${writes} writes, ${retried} retried, each stored once`);
    await fleet.startInstance(0);
    await everyMinute();
  });

  it("restarts both instances one by one under load without a failed request", async () => {
    let stop = false;
    const failures: string[] = [];
    let requests = 0;
    let writes = 0;
    const load = Array.from({ length: 4 }, async (_, worker) => {
      for (let n = 0; !stop; n++) {
        const write = n % 5 === 0 && writes < 150;
        const answer = write
          ? await call(fleet.url, "POST", "/v1/expenses", expense(`roll-${worker}-${n}`), {
              "idempotency-key": `roll-${worker}-${n}`,
            })
          : await call(fleet.url, "GET", n % 2 ? `/v1/events?business_id=${businessId}&limit=50` : "/v1/overview");
        if (write) writes += 1;
        requests += 1;
        if (answer.status !== (write ? 201 : 200))
          failures.push(`${answer.status} ${answer.error ?? JSON.stringify(answer.body)}`);
      }
    });
    for (const index of [0, 1]) {
      await sleep(1000);
      process.kill(fleet.pid(index)!, "SIGTERM");
      // The signal reaches the event loop beside requests already read: ask until it shows.
      let draining = await call(instance(index), "GET", "/readyz");
      for (let tries = 0; draining.status === 200 && tries < 20; tries++) {
        await sleep(25);
        draining = await call(instance(index), "GET", "/readyz");
      }
      expect(draining.body).toEqual({ ready: false, reason: "draining" });
      const exit = await fleet.exited(index);
      expect(exit.code).toBe(0);
      await fleet.startInstance(index);
      await everyMinute();
    }
    await sleep(1000);
    stop = true;
    await Promise.all(load);
    console.log(`rolling restart: ${requests} requests (${writes} writes), ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
  });

  it("reads from the primary when the replica stops", async () => {
    const fallbackBefore =
      (await metricValue(0, "fbo_reads_total", { target: "primary" })) +
      (await metricValue(0, "fbo_reads_total", { target: "fallback" }));
    await fleet.stopReplica();
    for (let round = 0; round < 10; round++) {
      const answer = await call(instance(0), "GET", `/v1/events?business_id=${businessId}&limit=10`);
      expect(answer.status, JSON.stringify(answer)).toBe(200);
    }
    expect((await call(fleet.url, "GET", "/v1/overview")).status).toBe(200);
    const fallbackAfter =
      (await metricValue(0, "fbo_reads_total", { target: "primary" })) +
      (await metricValue(0, "fbo_reads_total", { target: "fallback" }));
    expect(fallbackAfter - fallbackBefore).toBeGreaterThanOrEqual(10);
    expect(await metricValue(0, "fbo_replica_up")).toBe(0);
  });

  it("runs each cron slot of a scheduled job once across both instances", async () => {
    // The schedule has been every minute since the start; wait for two slots at least.
    const deadline = Date.now() + 150_000;
    let slots: { slot: Date; n: string; states: string[] }[] = [];
    while (Date.now() < deadline) {
      ({ rows: slots } = await primary.query(
        `SELECT date_trunc('minute', created_on) AS slot, count(*) AS n, array_agg(state::text) AS states
           FROM pgboss.job WHERE name = 'daily-brief' AND created_on >= $1 GROUP BY 1 ORDER BY 1`,
        [scheduledSince],
      ));
      if (slots.filter((slot) => slot.states.includes("completed")).length >= 2) break;
      await sleep(2000);
    }
    console.log(`cron: ${slots.length} slot(s): ${slots.map((slot) => `${slot.n}×${slot.states.join("/")}`).join(", ")}`);
    expect(slots.filter((slot) => slot.states.includes("completed")).length).toBeGreaterThanOrEqual(2);
    for (const slot of slots) expect(Number(slot.n)).toBe(1);
    expect(slots.flatMap((slot) => slot.states)).not.toContain("failed");
  });
});
