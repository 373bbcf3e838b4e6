// The daily-brief job (jobs/daily-brief.ts, read-models/daily-brief-notice.ts) on both engines:
// each owner hears of the day's brief once, from 07:00 in their own timezone, whatever the
// number of runs, instances or restarts; a muted code creates nothing. Clocks are given to
// each run (the runners' runNow / trigger take one); the run a scheduler makes at start uses
// the wall clock, so counts below only look at the days the tests name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { testEngine } from "../../test/helpers/database";
import { seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import type { TDbOrTx } from "../db/client";
import { DAILY_BRIEF_CODE, sendDailyBriefs } from "../read-models/daily-brief-notice";
import { fixedClock } from "../shared/clock";
import { DAILY_BRIEF_CRON, DAILY_BRIEF_JOB, dailyBriefJob } from "./daily-brief";
import { startScheduledJobs } from "./registry";

process.env.LOG_LEVEL = "silent";

// 2027-01-20T18:00Z is 07:00 on the 21st in Auckland (UTC+13) and 10:00 on the 20th in Los Angeles (UTC−8).
const SEVEN_IN_AUCKLAND = new Date("2027-01-20T18:00:00Z");
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

const clock = fixedClock(SEVEN_IN_AUCKLAND);
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock, env: { FX_SOURCE: "mock" } });
});
afterAll(async () => api?.close());

async function ownerIn(timezone: string, locale = "en-US"): Promise<TSeedOwner> {
  const owner = await seedOwner(api);
  await api.db.owner.update({
    where: { id: owner.ownerId },
    data: { timezone, locale, baseCurrency: "EUR", createdAt: new Date("2027-01-01T00:00:00Z") },
  });
  return owner;
}

const briefNotices = (ownerId: string, date?: string) =>
  api.db.notification.findMany({
    where: { ownerId, code: DAILY_BRIEF_CODE, ...(date ? { refId: date } : {}) },
    orderBy: { createdAt: "asc" },
  });

describe("sendDailyBriefs", () => {
  it("announces each owner's brief once a day, from 07:00 in their timezone, with the brief's headline", async () => {
    const auckland = await ownerIn("Pacific/Auckland");
    const losAngeles = await ownerIn("America/Los_Angeles", "en-GB");

    // 06:59:59 in Auckland: not yet. Los Angeles is at 09:59 on the 20th: its brief goes out.
    await sendDailyBriefs(api.db, at(SEVEN_IN_AUCKLAND, -1 / 60));
    expect(await briefNotices(auckland.ownerId)).toEqual([]);
    expect((await briefNotices(losAngeles.ownerId)).map((n) => n.refId)).toEqual(["2027-01-20"]);

    await sendDailyBriefs(api.db, SEVEN_IN_AUCKLAND);
    const [notice, ...more] = await briefNotices(auckland.ownerId);
    expect(more).toEqual([]);
    clock.set(SEVEN_IN_AUCKLAND);
    const brief = (await api.call("GET", "/v1/daily-brief?date=2027-01-21", { token: auckland.token })).body.data;
    expect(notice).toMatchObject({
      code: "daily_brief.ready",
      severity: "info",
      title: "Your brief for Thu, Jan 21",
      body: brief.headline,
      refType: "daily_brief",
      refId: "2027-01-21",
      readAt: null,
      createdAt: SEVEN_IN_AUCKLAND,
    });
    expect(brief.headline).toBe(
      "Jan 21, 2027: in €0.00, out €0.00, net €0.00. Cash unknown. Runway unknown. 0 approvals waiting.",
    );
    // The owner's locale names the day.
    expect((await briefNotices(losAngeles.ownerId))[0]!.title).toBe("Your brief for Wed 20 Jan");
    // It is listed like every notification, and counted unread.
    const listed = (await api.call("GET", "/v1/notifications?code=daily_brief.ready", { token: auckland.token })).body;
    expect(listed.data.map((n: any) => n.ref)).toEqual([{ type: "daily_brief", id: "2027-01-21" }]);

    // Later runs the same day send nothing more.
    for (const minutes of [15, 30, 600]) await sendDailyBriefs(api.db, at(SEVEN_IN_AUCKLAND, minutes));
    expect(await briefNotices(auckland.ownerId)).toHaveLength(1);
    expect(await briefNotices(losAngeles.ownerId)).toHaveLength(1);

    // The next morning, the next brief (Los Angeles' 21st began at 08:00Z; 07:00 there is 15:00Z).
    await sendDailyBriefs(api.db, at(SEVEN_IN_AUCKLAND, 24 * 60));
    expect((await briefNotices(auckland.ownerId)).map((n) => n.refId)).toEqual(["2027-01-21", "2027-01-22"]);
    expect((await briefNotices(losAngeles.ownerId)).map((n) => n.refId)).toEqual(["2027-01-20", "2027-01-21"]);
  });

  it("two runs at once announce it once", async () => {
    const owner = await ownerIn("Pacific/Auckland");
    const now = at(SEVEN_IN_AUCKLAND, 2 * 24 * 60); // 07:00 on the 23rd there
    await Promise.all([sendDailyBriefs(api.db, now), sendDailyBriefs(api.db, now), sendDailyBriefs(api.db, at(now, 1))]);
    expect((await briefNotices(owner.ownerId)).map((n) => n.refId)).toEqual(["2027-01-23"]);
    expect(await api.db.dailyBriefSent.count({ where: { ownerId: owner.ownerId } })).toBe(1);
  });

  it("a muted code creates no notification, and the day is not tried again", async () => {
    const owner = await ownerIn("Pacific/Auckland");
    await api.db.notificationPreference.create({ data: { ownerId: owner.ownerId, mutedCodes: ["daily_brief.*"] } });
    const now = at(SEVEN_IN_AUCKLAND, 3 * 24 * 60);
    const first = await sendDailyBriefs(api.db, now);
    expect(first.muted).toBeGreaterThanOrEqual(1);
    expect(await briefNotices(owner.ownerId)).toEqual([]);
    expect(await api.db.dailyBriefSent.count({ where: { ownerId: owner.ownerId } })).toBe(1);
    const again = await sendDailyBriefs(api.db, at(now, 15));
    expect(again).toMatchObject({ sent: 0, muted: 0, failed: 0 });
  });

  it("an owner whose brief fails is tried again on the next run, the others are not held up", async () => {
    const broken = await ownerIn("Pacific/Auckland");
    const fine = await ownerIn("Pacific/Auckland");
    // A base currency the rate source does not cover: the brief answers 422 while a snapshot needs converting.
    await api.db.owner.update({ where: { id: broken.ownerId }, data: { baseCurrency: "XAU" } });
    await api.db.cashSnapshot.create({
      data: {
        ownerId: broken.ownerId,
        personal: true,
        scope: "personal",
        amountMinor: 100n,
        currency: "EUR",
        asOf: new Date("2027-01-01T00:00:00Z"),
        accountId: "p1",
        externalId: "manual:p1",
        dataClass: "manual",
        sourceType: "MANUAL",
      },
    });
    const now = at(SEVEN_IN_AUCKLAND, 4 * 24 * 60);
    const result = await sendDailyBriefs(api.db, now);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(await briefNotices(broken.ownerId)).toEqual([]);
    expect(await api.db.dailyBriefSent.count({ where: { ownerId: broken.ownerId } })).toBe(0);
    expect(await briefNotices(fine.ownerId)).toHaveLength(1);
    await api.db.owner.update({ where: { id: broken.ownerId }, data: { baseCurrency: "EUR" } });
    await sendDailyBriefs(api.db, at(now, 15));
    expect(await briefNotices(broken.ownerId)).toHaveLength(1);
  });
});

describe("the daily-brief job", () => {
  it("in process: runs every 15 minutes; a restart after 07:00 sends the day's brief once, not twice", async () => {
    expect(dailyBriefJob).toMatchObject({ name: "daily-brief", intervalMs: 15 * 60_000, cron: "*/15 * * * *" });
    const owner = await ownerIn("Pacific/Auckland");
    const now = at(SEVEN_IN_AUCKLAND, 5 * 24 * 60 + 20); // 07:20 on the 26th there
    const start = () => startScheduledJobs(async () => api.db as TDbOrTx, { jobs: [dailyBriefJob] });

    const first = await start();
    try {
      await first.scheduler.runNow(DAILY_BRIEF_JOB, now);
    } finally {
      await first.stop();
    }
    // The server restarts 10 minutes later: its run at start, then its next tick.
    const second = await start();
    try {
      await second.scheduler.runNow(DAILY_BRIEF_JOB, at(now, 10));
      await second.scheduler.runNow(DAILY_BRIEF_JOB, at(now, 25));
    } finally {
      await second.stop();
    }
    expect((await briefNotices(owner.ownerId, "2027-01-26")).length).toBe(1);
  });

  it.skipIf(testEngine() !== "postgres")(
    "pg-boss: a run triggered from two instances at once announces it once",
    { timeout: 60_000 },
    async () => {
      const url = (api.database.target as { url: string }).url;
      const owner = await ownerIn("Pacific/Auckland");
      const now = at(SEVEN_IN_AUCKLAND, 6 * 24 * 60 + 5);
      const start = () =>
        startScheduledJobs(async () => api.db as TDbOrTx, {
          databaseUrl: url,
          jobs: [dailyBriefJob],
          queue: { pollingIntervalSeconds: 0.5 },
        });
      const [a, b] = await Promise.all([start(), start()]);
      try {
        const schedules = await a.queue!.boss.getSchedules();
        expect(schedules).toEqual([expect.objectContaining({ name: DAILY_BRIEF_JOB, cron: DAILY_BRIEF_CRON })]);
        const ids = await Promise.all([a.queue!.trigger(DAILY_BRIEF_JOB, { now }), b.queue!.trigger(DAILY_BRIEF_JOB, { now })]);
        for (const id of ids.filter((x): x is string => x !== null)) {
          const deadline = Date.now() + 20_000;
          for (;;) {
            const job = await a.queue!.boss.getJobById(DAILY_BRIEF_JOB, id);
            if (job && (job.state === "completed" || job.state === "failed")) break;
            if (Date.now() > deadline) throw new Error(`job ${id} did not finish`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        expect((await briefNotices(owner.ownerId, "2027-01-27")).length).toBe(1);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    },
  );
});
