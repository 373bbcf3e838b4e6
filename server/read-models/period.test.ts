// K1: periods (defaults, the 400s naming the field) and the owner-timezone day boundaries.
import { describe, expect, it } from "vitest";
import { zoneDayStart } from "../../lib/days";
import { AppError } from "../errors/app-error";
import { dayEndExclusive, resolvePeriod } from "./period";

const TODAY = "2026-11-22";

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("resolvePeriod", () => {
  it("defaults to [today − 29, today]", () => {
    expect(resolvePeriod({}, TODAY)).toEqual({ from: "2026-10-24", to: TODAY, days: 30 });
  });

  it("only from → to = today; only to → from = to − 29", () => {
    expect(resolvePeriod({ from: "2026-11-01" }, TODAY)).toEqual({ from: "2026-11-01", to: TODAY, days: 22 });
    expect(resolvePeriod({ to: "2026-03-01" }, TODAY)).toEqual({ from: "2026-01-31", to: "2026-03-01", days: 30 });
  });

  it("one day and exactly 366 days are fine", () => {
    expect(resolvePeriod({ from: TODAY, to: TODAY }, TODAY).days).toBe(1);
    expect(resolvePeriod({ from: "2028-01-01", to: "2028-12-31" }, TODAY).days).toBe(366);
    // A future period is a period (forecasts are elsewhere; summaries of it are simply empty).
    expect(resolvePeriod({ from: "2027-01-01", to: "2027-01-31" }, TODAY).days).toBe(31);
  });

  it("from after to → 400 naming from (also when to is today by default)", () => {
    for (const input of [{ from: "2026-11-23", to: "2026-11-22" }, { from: "2026-11-23" }]) {
      const error = refusal(() => resolvePeriod(input, TODAY));
      expect(error.code).toBe("validation_error");
      expect(error.message).toMatch(/^from: /);
    }
  });

  it("367 days → 400 naming from", () => {
    const error = refusal(() => resolvePeriod({ from: "2025-11-21", to: TODAY }, TODAY));
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^from: .*367 days/);
  });
});

describe("owner-timezone day boundaries", () => {
  it("zoneDayStart: the first instant of a day in a zone", () => {
    expect(zoneDayStart("UTC", "2026-11-23").toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(zoneDayStart("Europe/Berlin", "2026-11-23").toISOString()).toBe("2026-11-22T23:00:00.000Z");
    expect(zoneDayStart("Europe/Berlin", "2026-07-01").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(zoneDayStart("America/Los_Angeles", "2026-11-23").toISOString()).toBe("2026-11-23T08:00:00.000Z");
    expect(zoneDayStart("Asia/Kolkata", "2026-11-23").toISOString()).toBe("2026-11-22T18:30:00.000Z");
    expect(zoneDayStart("Pacific/Kiritimati", "2026-11-23").toISOString()).toBe("2026-11-22T10:00:00.000Z");
    expect(zoneDayStart("Mars/Olympus", "2026-11-23").toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });

  it("zoneDayStart across DST changes (Berlin: 29 Mar and 25 Oct 2026; Santiago starts a day at 01:00)", () => {
    expect(zoneDayStart("Europe/Berlin", "2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(zoneDayStart("Europe/Berlin", "2026-03-30").toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(zoneDayStart("Europe/Berlin", "2026-10-25").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(zoneDayStart("Europe/Berlin", "2026-10-26").toISOString()).toBe("2026-10-25T23:00:00.000Z");
    // Chile moves 00:00 → 01:00 on the first Sunday of September: 2026-09-06 starts at 01:00 −03.
    expect(zoneDayStart("America/Santiago", "2026-09-06").toISOString()).toBe("2026-09-06T04:00:00.000Z");
  });

  it("dayEndExclusive: the end of D is the start of D + 1 in the zone", () => {
    expect(dayEndExclusive("Europe/Berlin", "2026-11-22").toISOString()).toBe("2026-11-22T23:00:00.000Z");
    expect(dayEndExclusive("UTC", "2026-12-31").toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});
