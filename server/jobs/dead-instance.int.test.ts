// Issue #32 item 8 (pinned-wave3 §1.7): killing an instance (kill -9) in the middle of a
// notification delivery run left its pg-boss job `active`, and nobody's notifications went out
// until pg-boss expired it, an hour later. A job an instance was running when it died is retried
// by another instance within 60 s, at most once more than needed, and each delivery is recorded
// once per notification and channel.
//
// Each instance is a real process (test/helpers/job-instance.ts: the app's jobs, started as the
// server starts them), killed with SIGKILL while its run is held at a known point: a webhook
// receiver that does not answer, or a table lock the reconciliation waits on. The instances run
// with short leases (job-instance.ts), so recovery takes seconds; the deadline asserted is the
// rule's own 60 s, which today's code misses by an hour. The production leases are checked
// against the rule in job-lease.test.ts. PostgreSQL only: instances share a database server.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { testEngine } from "../../test/helpers/database";
import type { TJobInstanceOptions } from "../../test/helpers/job-instance";
import { startSmtpSink, type TSmtpSink } from "../../test/helpers/owners";
import { createReconciliationOwner } from "../../test/helpers/reconciliation";
import { seedBusiness, seedIntegration, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { ingestSignals } from "../ingest/ingest-service";
import { PG_BOSS_SCHEMA } from "./pg-boss-runner";
import { RECONCILIATION_JOB } from "./reconciliation";

/** §1.7: another instance takes over within this. */
const RULE_MS = 60_000;
const LEASE_SECONDS = 3;
const CLAIM_LEASE_MS = 2_000;
const INSTANCE: TJobInstanceOptions = {
  deliveryIntervalMs: 500,
  deliveryClaimLeaseMs: CLAIM_LEASE_MS,
  queue: {
    pollingIntervalSeconds: 0.5,
    lease: { leaseSeconds: LEASE_SECONDS, heartbeatSeconds: 1, maintenanceIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
  },
};

type TInstance = {
  child: ChildProcess;
  /** The job runs this instance logged (LOG_LEVEL=debug): `job_id`s of the named job. */
  runsOf: (job: string) => string[];
  kill: () => Promise<void>;
};

const instances = new Set<TInstance>();

/** Starts an instance and waits until its jobs run. */
async function startInstance(url: string): Promise<TInstance> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/job-instance.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "debug", JOB_INSTANCE: JSON.stringify(INSTANCE) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = once(child, "exit");
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
  });
  const errors: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => errors.push(chunk));
  const instance: TInstance = {
    child,
    runsOf: (job) =>
      lines
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { message: string; job_id?: string })
        .filter((entry) => entry.message === job && entry.job_id)
        .map((entry) => entry.job_id!),
    kill: async () => {
      instances.delete(instance);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
  instances.add(instance);
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`the instance exited: ${errors.join("")}`);
      return lines.includes("ready");
    },
    Date.now() + 60_000,
    "the instance to start",
  );
  return instance;
}

async function until(check: () => boolean | Promise<boolean>, deadline: number, what: string): Promise<void> {
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type TRequest = { eventId: string; answered: boolean };

/**
 * A webhook receiver on 127.0.0.1 that keeps every request by its event id (X-Service-Event-Id)
 * and answers 204 after `delayFor(eventId, nth)` ms, or never ("hold").
 */
async function startReceiver() {
  const requests: TRequest[] = [];
  const sockets = new Set<Socket>();
  let delayFor: (eventId: string, nth: number) => number | "hold" = () => 0;
  const server: Server = createServer((request, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      const eventId = String(request.headers["x-service-event-id"]);
      const entry = { eventId, answered: false };
      const delay = delayFor(eventId, requests.filter((r) => r.eventId === eventId).length);
      requests.push(entry);
      if (delay === "hold") return;
      setTimeout(() => {
        entry.answered = true;
        response.writeHead(204).end();
      }, delay);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    answer: (policy: typeof delayFor) => {
      delayFor = policy;
    },
    /** Requests for the event, and how many of them were answered 2xx. */
    countOf: (eventId: string) => ({
      received: requests.filter((r) => r.eventId === eventId).length,
      answered: requests.filter((r) => r.eventId === eventId && r.answered).length,
    }),
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const postgres = testEngine() === "postgres";
let api: TTestApi;
let url: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: TSmtpSink;
let boss: PgBoss;

beforeAll(async () => {
  if (!postgres) return;
  receiver = await startReceiver();
  sink = await startSmtpSink();
  api = await createTestApi({ env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SMTP_URL: sink.url } });
  url = (api.database.target as { url: string }).url;
  // Sends jobs as any instance would; no worker, no maintenance, no cron of its own.
  boss = new PgBoss({ connectionString: url, schema: PG_BOSS_SCHEMA, supervise: false, schedule: false, max: 2 });
  await boss.start();
});
afterEach(async () => {
  await Promise.all([...instances].map((instance) => instance.kill()));
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await receiver?.close();
  await sink?.close();
  await api?.close();
});

/** An owner whose critical notifications go to the receiver (and by email when `email`). */
async function ownerWithWebhook(email = false): Promise<TSeedOwner & { integrationId: string }> {
  const owner = await seedOwner(api);
  const businessId = (await seedBusiness(api, { name: "Shop", currency: "EUR" }, owner.token)).id;
  const integrationId = await seedIntegration(api.db, { ownerId: owner.ownerId, provider: "payments_a", businessId });
  const put = await api.call("PUT", "/v1/me/notification-webhook", { token: owner.token, body: { url: receiver.url } });
  expect(put.status, put.text).toBe(200);
  if (email) {
    const patch = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { channels: { email: { enabled: true } } },
    });
    expect(patch.status, patch.text).toBe(200);
  }
  return { ...owner, integrationId };
}

/** A critical notification (a failed payout); answers its deliveries' ids by channel. */
async function notify(owner: TSeedOwner & { integrationId: string }) {
  const before = new Set((await deliveriesOf(owner)).map((d) => d.id));
  await ingestSignals(api.db, owner.ownerId, [
    {
      integration_id: owner.integrationId,
      external_id: `sig_${randomUUID()}`,
      code: "payout_failed",
      occurred_at: "2026-11-20T10:00:00.000Z",
    },
  ]);
  const created = (await deliveriesOf(owner)).filter((d) => !before.has(d.id));
  return Object.fromEntries(created.map((d) => [d.channel, d.id])) as { webhook: string; email?: string };
}

const deliveriesOf = (owner: TSeedOwner) =>
  api.db.notificationDelivery.findMany({ where: { ownerId: owner.ownerId }, orderBy: { createdAt: "asc" } });

async function allDelivered(owner: TSeedOwner): Promise<boolean> {
  const rows = await deliveriesOf(owner);
  return rows.length > 0 && rows.every((row) => row.status === "delivered");
}

/** Each delivery of the owner recorded once: one attempt, one `delivered` entry for its channel. */
async function expectRecordedOnce(owner: TSeedOwner) {
  for (const row of await deliveriesOf(owner)) {
    expect(row).toMatchObject({ status: "delivered", attempts: 1 });
    const notification = await api.db.notification.findUniqueOrThrow({ where: { id: row.notificationId } });
    const entries = (notification.delivered as Array<{ channel: string; status: string }>).filter(
      (e) => e.channel === row.channel,
    );
    expect(entries).toEqual([expect.objectContaining({ status: "delivered", attempt: 1 })]);
  }
}

/** The queued job's row in pg-boss (state, how many times it was fetched again). */
async function queuedJob(id: string) {
  const [row] = await api.db.$queryRawUnsafe<Array<{ state: string; retry_count: number; output: unknown }>>(
    `SELECT state::text, retry_count, output FROM ${PG_BOSS_SCHEMA}.job WHERE id = $1::uuid`,
    id,
  );
  return row;
}

/**
 * Holds ACCESS EXCLUSIVE on `integrations` in a transaction of its own: the reconciliation's
 * first query waits on it (no other job of an instance reads the table).
 */
async function blockReconciliation() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE integrations IN ACCESS EXCLUSIVE MODE");
  return {
    // A statement waiting on the table (pg_stat_activity may still show the connection's previous
    // statement: the lock is taken while the new one is parsed).
    waiting: async () => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE NOT granted AND relation = 'integrations'::regclass AND pid <> pg_backend_pid()`,
      );
      return rows[0].n > 0;
    },
    release: async () => {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

describe.skipIf(!postgres)("an instance killed in the middle of a job (kill -9)", () => {
  it(
    "its delivery run's notifications, and every owner's new ones, go out from another instance within 60 s, each recorded once per channel",
    { timeout: 5 * RULE_MS },
    async () => {
      const first = await ownerWithWebhook(true);
      const second = await ownerWithWebhook();
      const a = await startInstance(url);

      // The first owner's webhook is held: the instance's delivery run is in the middle of it.
      // (Before the fix the run came with the queue's next cron minute: hence the long wait.)
      receiver.answer((_eventId, nth) => (nth === 0 ? "hold" : 0));
      const held = await notify(first);
      await until(() => receiver.countOf(held.webhook).received === 1, Date.now() + 2 * RULE_MS, "the held webhook");
      // The email of the same notification went out beside it, and was recorded.
      await until(
        async () => (await deliveriesOf(first)).some((d) => d.channel === "email" && d.status === "delivered"),
        Date.now() + 30_000,
        "the email",
      );
      await a.kill();
      const killedAt = Date.now();
      receiver.answer(() => 0);

      // A notification raised after the death, of another owner, and the survivor.
      const later = await notify(second);
      await startInstance(url);
      await until(
        async () => (await allDelivered(first)) && (await allDelivered(second)),
        killedAt + RULE_MS,
        "every delivery, within 60 s of the kill",
      );
      console.log(`dead instance: its deliveries out ${Date.now() - killedAt} ms after the kill (the survivor's start included)`);

      // Answered once each at the receiver (the killed instance's request never got its answer),
      // one email, and one attempt in each delivery row.
      expect(receiver.countOf(held.webhook)).toEqual({ received: 2, answered: 1 });
      expect(receiver.countOf(later.webhook)).toEqual({ received: 1, answered: 1 });
      const email = (await api.db.owner.findUniqueOrThrow({ where: { id: first.ownerId } })).email;
      expect(sink.messages.filter((mail) => mail.to.includes(email))).toHaveLength(1);
      await expectRecordedOnce(first);
      await expectRecordedOnce(second);
    },
  );

  it(
    "a job of another queue it was running (the reconciliation) runs again on the surviving instance within 60 s, once",
    { timeout: 3 * RULE_MS },
    async () => {
      const o = await createReconciliationOwner(api.db, "killed");
      const line = await o.bankLine("bank_1", 4_400, "2026-11-10");
      await o.payment("ch_1", 4_400, "2026-11-12");
      const lock = await blockReconciliation();
      let released = false;
      try {
        const a = await startInstance(url);
        const id = await boss.send(RECONCILIATION_JOB, { now: "2026-11-14T12:00:00.000Z" });
        expect(id).toEqual(expect.any(String));
        await until(lock.waiting, Date.now() + 30_000, "the run to wait on the lock");
        expect(await queuedJob(id!)).toMatchObject({ state: "active", retry_count: 0 });
        await a.kill();
        const killedAt = Date.now();
        await lock.release();
        released = true;

        const b = await startInstance(url);
        await until(
          async () => (await queuedJob(id!))?.state === "completed",
          killedAt + RULE_MS,
          "the job, within 60 s of the kill",
        );
        console.log(
          `dead instance: its reconciliation done ${Date.now() - killedAt} ms after the kill (the survivor's start included)`,
        );
        // Fetched once more than the first time, run once by the survivor; the line matched.
        expect(await queuedJob(id!)).toMatchObject({ retry_count: 1, output: { matched: 1, complete: true } });
        await until(() => b.runsOf(RECONCILIATION_JOB).length > 0, Date.now() + 5_000, "the survivor's log line");
        expect(b.runsOf(RECONCILIATION_JOB)).toEqual([id]);
        expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: line } })).reconciled).toBe(true);
        expect(await api.db.auditEntry.count({ where: { ownerId: o.ownerId, action: "import.reconciled" } })).toBe(1);
      } finally {
        if (!released) await lock.release();
      }
    },
  );
});

describe.skipIf(!postgres)("an instance that is slow but alive", () => {
  it(
    "keeps its job while the run outlasts the lease several times over: no other instance runs it",
    { timeout: 3 * RULE_MS },
    async () => {
      const o = await createReconciliationOwner(api.db, "slow");
      await o.bankLine("bank_1", 5_500, "2026-11-10");
      await o.payment("ch_1", 5_500, "2026-11-12");
      const lock = await blockReconciliation();
      let released = false;
      try {
        const both = await Promise.all([startInstance(url), startInstance(url)]);
        const id = await boss.send(RECONCILIATION_JOB, { now: "2026-11-14T12:00:00.000Z" });
        await until(lock.waiting, Date.now() + 30_000, "the run to wait on the lock");
        // Proving that nothing happens takes the time: three leases, with maintenance every second.
        await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_SECONDS * 1000));
        expect(await queuedJob(id!)).toMatchObject({ state: "active", retry_count: 0 });
        await lock.release();
        released = true;
        await until(async () => (await queuedJob(id!))?.state === "completed", Date.now() + 30_000, "the job");
        expect(await queuedJob(id!)).toMatchObject({ retry_count: 0, output: { matched: 1 } });
        // Run by one of the two instances, once.
        const runs = () => both.flatMap((instance) => instance.runsOf(RECONCILIATION_JOB));
        await until(() => runs().length > 0, Date.now() + 5_000, "the instance's log line");
        expect(runs()).toEqual([id]);
      } finally {
        if (!released) await lock.release();
      }
    },
  );

  it(
    "keeps the deliveries it is attempting while a receiver outlasts the claim several times over: sent once",
    { timeout: 3 * RULE_MS },
    async () => {
      const owner = await ownerWithWebhook();
      await Promise.all([startInstance(url), startInstance(url)]);
      // Three claims' time, under the webhook's own 10 s deadline.
      receiver.answer(() => 3 * CLAIM_LEASE_MS + 500);
      const { webhook } = await notify(owner);
      await until(() => allDelivered(owner), Date.now() + 30_000, "the delivery");
      expect(receiver.countOf(webhook)).toEqual({ received: 1, answered: 1 });
      await expectRecordedOnce(owner);
    },
  );
});
