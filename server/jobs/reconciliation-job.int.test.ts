// The daily reconciliation job and its two runners: in process on the embedded database, and
// pg-boss on PostgreSQL (only in the postgres project: pg-boss needs a real server).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEngine, type TTestDatabase } from "../../test/helpers/database";
import type { TDbOrTx } from "../db/client";
import { createReconciliationOwner, seedImportedLines } from "../../test/helpers/reconciliation";
import { PG_BOSS_SCHEMA } from "./pg-boss-runner";
import { RECONCILIATION_CRON, RECONCILIATION_JOB, reconciliationJob } from "./reconciliation";
import { startScheduledJobs, type TRunningJobs } from "./registry";
import type { TJob } from "./scheduler";

process.env.LOG_LEVEL = "silent";

let database: TTestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

const NOW = new Date("2026-11-14T12:00:00Z");

/** The real job definition, counting its runs. */
function countedJob(): { job: TJob; runs: () => number } {
  let runs = 0;
  return {
    job: {
      ...reconciliationJob,
      run: (db, now) => {
        runs++;
        return reconciliationJob.run(db, now);
      },
    },
    runs: () => runs,
  };
}

describe("in process (no DATABASE_URL)", () => {
  it("runs the reconciliation in the in-process scheduler, with a controlled clock", async () => {
    const counted = countedJob();
    const jobs = await startScheduledJobs(async () => database.prisma, { jobs: [counted.job] });
    try {
      expect(jobs.queue).toBeNull();
      await jobs.scheduler.runNow(RECONCILIATION_JOB); // joins the run made at start
      const o = await createReconciliationOwner(database.prisma, "inprocess");
      const line = await o.bankLine("bank_1", 2_500, "2026-11-10");
      await o.payment("ch_1", 2_500, "2026-11-11");
      await o.bankLine("bank_stale", 9_000, "2026-11-09");
      // ch_1 shows the payments integration reports this business's EUR money up to the 11th,
      // so the stale line of the 9th was expected to match: one alert.
      expect(await jobs.scheduler.runNow(RECONCILIATION_JOB, NOW)).toEqual({
        matched: 1,
        signaled: 1,
        unreconciled: 1,
        complete: true,
      });
      expect((await database.prisma.financialEvent.findUniqueOrThrow({ where: { id: line } })).reconciled).toBe(true);
      expect(counted.runs()).toBe(2);
    } finally {
      await jobs.stop();
    }
  });
});

describe("a statement of 5,000 lines", () => {
  it("raises one alert per import and day naming the count, only for the days an integration covers", async () => {
    const jobs = await startScheduledJobs(async () => database.prisma, { jobs: [reconciliationJob] });
    try {
      await jobs.scheduler.runNow(RECONCILIATION_JOB); // the run made at start, before the statement
      const o = await createReconciliationOwner(database.prisma, "statement");
      const importId = randomUUID();
      await seedImportedLines(database.prisma, {
        ownerId: o.ownerId,
        businessId: o.businessId,
        integrationId: o.importIntegrationId,
        importId,
        count: 5_000,
        from: "2026-11-01",
        days: 10, // 500 lines a day: 250 money out, 250 money in
      });
      // The payments integration reports EUR money out, and has synced up to the 6th.
      await o.payment("ch_evidence", 1, "2026-11-06");

      expect(await jobs.scheduler.runNow(RECONCILIATION_JOB, NOW)).toEqual({
        matched: 0,
        signaled: 6,
        unreconciled: 1_500,
        complete: true,
      });
      const alerts = await database.prisma.alert.findMany({
        where: { ownerId: o.ownerId, code: "integration.unreconciled" },
        orderBy: { message: "asc" },
      });
      expect(alerts.map((a) => a.message.slice(0, 28))).toEqual(
        ["01", "02", "03", "04", "05", "06"].map((d) => `250 bank lines of 2026-11-${d}`),
      );
      expect(alerts.every((a) => a.message.includes(`(import ${importId})`))).toBe(true);
      // The next run finds every group raised: nothing new.
      expect(await jobs.scheduler.runNow(RECONCILIATION_JOB, NOW)).toEqual({
        matched: 0,
        signaled: 0,
        unreconciled: 0,
        complete: true,
      });
    } finally {
      await jobs.stop();
    }
  });
});

async function waitForJob(jobs: TRunningJobs, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobs.queue!.boss.getJobById(RECONCILIATION_JOB, id);
    if (job && (job.state === "completed" || job.state === "failed")) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not finish: ${job?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(testEngine() !== "postgres")("pg-boss (DATABASE_URL set)", () => {
  it("registers the daily schedule once and runs a triggered job exactly once across two instances", async () => {
    const url = (database.target as { url: string }).url;
    const counted = countedJob();
    const getDb = async (): Promise<TDbOrTx> => database.prisma;
    const start = () =>
      startScheduledJobs(getDb, { databaseUrl: url, jobs: [counted.job], queue: { pollingIntervalSeconds: 0.5 } });
    const [a, b] = await Promise.all([start(), start()]);
    try {
      expect(a.queue).not.toBeNull();
      expect(b.queue).not.toBeNull();
      // The job is not in the in-process scheduler on PostgreSQL.
      expect(() => a.scheduler.runNow(RECONCILIATION_JOB)).toThrow(/No job named/);

      const schedules = await a.queue!.boss.getSchedules();
      expect(schedules).toHaveLength(1);
      expect(schedules[0]).toMatchObject({ name: RECONCILIATION_JOB, cron: RECONCILIATION_CRON });
      // A dead instance's run lapses after the 20 s lease and is retried at once (job-lease.ts).
      expect(await a.queue!.boss.getQueue(RECONCILIATION_JOB)).toMatchObject({
        policy: "stately",
        expireInSeconds: 20,
        retryDelay: 0,
        retryLimit: 2,
      });
      const installed = await database.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = '${PG_BOSS_SCHEMA}'`,
      );
      expect(installed[0]!.n).toBe(1);

      const o = await createReconciliationOwner(database.prisma, "pgboss");
      const line = await o.bankLine("bank_1", 4_400, "2026-11-10");
      await o.payment("ch_1", 4_400, "2026-11-12");

      const id = await a.queue!.trigger(RECONCILIATION_JOB, { now: NOW });
      expect(id).toEqual(expect.any(String));
      const done = await waitForJob(a, id!);
      expect(done.state).toBe("completed");
      expect(done.output).toEqual({ matched: 1, signaled: 0, unreconciled: 0, complete: true });
      // Both workers polled again (0.5 s apart) without running it twice: proving an absence
      // takes real time, since pg-boss's workers poll on timers of their own.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(counted.runs()).toBe(1);
      expect((await database.prisma.financialEvent.findUniqueOrThrow({ where: { id: line } })).reconciled).toBe(true);

      // Triggered from both instances at once: whatever runs, nothing is matched twice.
      await o.bankLine("bank_2", 5_500, "2026-11-10");
      await o.payment("ch_2", 5_500, "2026-11-10");
      const ids = await Promise.all([
        a.queue!.trigger(RECONCILIATION_JOB, { now: NOW }),
        b.queue!.trigger(RECONCILIATION_JOB, { now: NOW }),
      ]);
      for (const queued of ids.filter((x): x is string => x !== null)) await waitForJob(a, queued);
      expect(await database.prisma.auditEntry.count({ where: { ownerId: o.ownerId, action: "import.reconciled" } })).toBe(2);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("sends each cron slot once, whichever instance is up: two instances, one run", { timeout: 60_000 }, async () => {
    const url = (database.target as { url: string }).url;
    // A cron slot is one minute: start early in a minute, so the test stays inside one slot.
    // The one wait on the wall clock left in the job tests: pg-boss's timekeeper decides which
    // slot is due from Date.now() (plus the database's clock skew) and takes no clock of ours.
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const counted = countedJob();
    const everyMinute: TJob = { ...counted.job, name: "reconciliation-every-minute", cron: "* * * * *" };
    const options = {
      databaseUrl: url,
      jobs: [everyMinute],
      queue: { pollingIntervalSeconds: 0.5, cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 },
    };
    const [a, b] = await Promise.all([
      startScheduledJobs(async () => database.prisma, options),
      startScheduledJobs(async () => database.prisma, options),
    ]);
    try {
      const deadline = Date.now() + 15_000;
      while (counted.runs() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(counted.runs()).toBe(1);
      // Both instances checked the cron again (every second) without sending the slot twice.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(counted.runs()).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
