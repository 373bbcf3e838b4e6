import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../lib/days";
import { distributeByBps } from "../subscriptions/allocation-math";
import { campaignBudgetDays, chargeDates, nthCharge, plannedDay, projectPart } from "./commitments-calendar";

describe("chargeDates (K7)", () => {
  it("clamps a month-end anchor to each month's end and goes back to the 31st (from the anchor, not the clamped day)", () => {
    expect(chargeDates({ nextChargeOn: "2027-01-31", interval: "month", today: "2027-01-01", end: "2027-05-31" })).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
    ]);
  });

  it("knows leap years: 29 Feb 2028, then 28 Feb 2029 for a yearly charge on the 29th", () => {
    expect(chargeDates({ nextChargeOn: "2028-01-31", interval: "month", today: "2028-01-01", end: "2028-03-31" })).toEqual([
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
    ]);
    expect(chargeDates({ nextChargeOn: "2028-02-29", interval: "year", today: "2028-01-01", end: "2033-12-31" })).toEqual([
      "2028-02-29",
      "2029-02-28",
      "2030-02-28",
      "2031-02-28",
      "2032-02-29",
      "2033-02-28",
    ]);
  });

  it("rolls quarters on the anchor day, clamped", () => {
    expect(chargeDates({ nextChargeOn: "2027-11-30", interval: "quarter", today: "2027-11-01", end: "2028-12-31" })).toEqual([
      "2027-11-30",
      "2028-02-29",
      "2028-05-30",
      "2028-08-30",
      "2028-11-30",
    ]);
  });

  it("charges a weekly subscription 13 times over 90 days from today, every 7 days", () => {
    const today = "2027-03-10";
    const dates = chargeDates({ nextChargeOn: today, interval: "week", today, end: addDays(today, 89) });
    expect(dates).toHaveLength(13);
    expect(dates[0]).toBe(today);
    expect(dates[12]).toBe(addDays(today, 84));
    dates.slice(1).forEach((date, i) => expect(daysBetween(dates[i]!, date)).toBe(7));
  });

  it("never charges before today: a past anchor rolls forward, not overdue", () => {
    expect(chargeDates({ nextChargeOn: "2026-01-31", interval: "month", today: "2027-03-01", end: "2027-04-30" })).toEqual([
      "2027-03-31",
      "2027-04-30",
    ]);
    expect(chargeDates({ nextChargeOn: "2027-02-01", interval: "week", today: "2027-03-02", end: "2027-03-16" })).toEqual([
      "2027-03-08",
      "2027-03-15",
    ]);
    // The anchor today itself counts; a charge after `end` does not.
    expect(chargeDates({ nextChargeOn: "2027-03-02", interval: "year", today: "2027-03-02", end: "2028-03-01" })).toEqual([
      "2027-03-02",
    ]);
    expect(chargeDates({ nextChargeOn: "2027-05-01", interval: "month", today: "2027-03-02", end: "2027-04-30" })).toEqual([]);
  });

  it("skips a day a confirmed event of the subscription is dated (a recurring expense's first charge counts once)", () => {
    const skip = new Set(["2027-04-15"]);
    expect(chargeDates({ nextChargeOn: "2027-04-15", interval: "month", today: "2027-04-01", end: "2027-06-30", skip })).toEqual([
      "2027-05-15",
      "2027-06-15",
    ]);
  });

  it("equals stepping one period at a time from the anchor, for any anchor, interval and window", () => {
    const day = fc.integer({ min: 0, max: 3000 }).map((n) => addDays("2024-01-01", n));
    fc.assert(
      fc.property(
        day,
        fc.constantFrom("week" as const, "month" as const, "quarter" as const, "year" as const),
        day,
        fc.integer({ min: 0, max: 400 }),
        (anchor, interval, today, length) => {
          const end = addDays(today, length);
          const expected: string[] = [];
          for (let n = 0; ; n++) {
            const date = nthCharge(anchor, interval, n);
            if (date > end) break;
            if (date >= today) expected.push(date);
          }
          expect(chargeDates({ nextChargeOn: anchor, interval, today, end })).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("plannedDay (K7)", () => {
  it("dates a past planned event today, flagged overdue; a future one stays on its day", () => {
    expect(plannedDay("2027-03-01", "2027-03-05")).toEqual({ date: "2027-03-05", overdue: true });
    expect(plannedDay("2027-03-05", "2027-03-05")).toEqual({ date: "2027-03-05", overdue: false });
    expect(plannedDay("2027-04-01", "2027-03-05")).toEqual({ date: "2027-04-01", overdue: false });
  });
});

describe("projectPart (K7)", () => {
  const allocations = [
    { projectId: "b", shareBps: 3333 },
    { projectId: "a", shareBps: 3333 },
    { projectId: "c", shareBps: 3334 },
  ];

  it("gives each project its largest-remainder part, in the subscription DTO's order, summing to the whole", () => {
    // Order: c (3334), a, b (3333 each, by id). 100 → 34, 33, 33; 101 → 34, 34, 33.
    expect(projectPart(100n, allocations, "c")).toEqual({ amountMinor: 34n, shareBps: 3334 });
    expect(projectPart(101n, allocations, "a")).toEqual({ amountMinor: 34n, shareBps: 3333 });
    expect(projectPart(101n, allocations, "b")).toEqual({ amountMinor: 33n, shareBps: 3333 });
    const parts = ["a", "b", "c"].map((id) => projectPart(12_345n, allocations, id)!.amountMinor);
    expect(parts.reduce((x, y) => x + y, 0n)).toBe(12_345n);
    expect(distributeByBps(12_345n, [3334, 3333, 3333])).toEqual([parts[2], parts[0], parts[1]]);
  });

  it("is null for a project without an allocation", () => {
    expect(projectPart(100n, allocations, "z")).toBeNull();
  });
});

describe("campaignBudgetDays (pinned-wave3 §1.3)", () => {
  const change = (id: string, effectiveOn: string, createdAt: string) => ({
    id,
    effectiveOn,
    createdAt: new Date(`${createdAt}T12:00:00Z`),
  });
  const held = (changes: ReturnType<typeof change>[], today = "2026-05-10", end = "2026-05-16") =>
    campaignBudgetDays(changes, today, end).map((d) => `${d.date.slice(8)}:${d.change.id}`);

  it("knows a budget from its change's effective_on on, from today when that was before", () => {
    expect(held([change("a", "2026-05-13", "2026-05-01")])).toEqual(["13:a", "14:a", "15:a", "16:a"]);
    expect(held([change("a", "2026-04-01", "2026-04-01")])).toHaveLength(7);
    expect(held([change("a", "2026-05-20", "2026-05-01")])).toEqual([]);
  });

  it("lets a newer change replace an older one from its own effective_on", () => {
    const older = change("old", "2026-05-01", "2026-05-01");
    const newer = change("new", "2026-05-14", "2026-05-09");
    expect(held([older, newer])).toEqual(["10:old", "11:old", "12:old", "13:old", "14:new", "15:new", "16:new"]);
    // A newer change effective before an older one's later date holds from its own day on, over it.
    const laterPlan = change("plan", "2026-05-15", "2026-05-02");
    const overrides = change("over", "2026-05-12", "2026-05-08");
    expect(held([older, laterPlan, overrides])).toEqual([
      "10:old",
      "11:old",
      "12:over",
      "13:over",
      "14:over",
      "15:over",
      "16:over",
    ]);
  });
});
