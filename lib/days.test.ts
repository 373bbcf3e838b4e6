// The day rules (lib/days.ts): each conversion, each "today", day and month arithmetic with
// month-end clamping, checked on fixed cases and against the expressions they replaced.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonthsClamped,
  dayParts,
  daysBetween,
  daysInMonth,
  formatDay,
  hourIn,
  isCalendarDay,
  localToday,
  todayIn,
  todayUtc,
  utcDayOf,
  utcDayOfUnixSeconds,
  utcMidnightOf,
} from "./days";

/** Any day from 1900-01-01 to 2999-12-31 (the range the service accepts). */
const anyDay = fc
  .integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2999, 11, 31) / 86_400_000 })
  .map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10));

describe("conversions between days and instants", () => {
  it("utcDayOf: the UTC day an instant falls on, whatever the offset it was written with", () => {
    expect(utcDayOf(new Date("2026-11-22T23:59:59.999Z"))).toBe("2026-11-22");
    expect(utcDayOf(new Date("2026-11-23T00:30:00+01:00"))).toBe("2026-11-22");
    expect(utcDayOf(new Date("0001-01-01T00:00:00Z"))).toBe("0001-01-01"); // stored before the 1900 rule
  });

  it("utcDayOfUnixSeconds: a platform's Unix time", () => {
    expect(utcDayOfUnixSeconds(0)).toBe("1970-01-01");
    expect(utcDayOfUnixSeconds(1_795_391_999)).toBe("2026-11-22"); // 23:59:59Z
    expect(utcDayOfUnixSeconds(1_795_392_000)).toBe("2026-11-23");
  });

  it("utcMidnightOf: the Date a DATE column stores, and back", () => {
    expect(utcMidnightOf("2026-11-22").toISOString()).toBe("2026-11-22T00:00:00.000Z");
    fc.assert(fc.property(anyDay, (day) => utcDayOf(utcMidnightOf(day)) === day));
  });

  it("isCalendarDay: a YYYY-MM-DD that exists", () => {
    for (const day of ["2026-11-22", "2028-02-29", "2000-02-29", "1900-01-01"]) expect(isCalendarDay(day), day).toBe(true);
    for (const day of [
      "2026-02-29",
      "1900-02-29",
      "2026-02-30",
      "2026-13-01",
      "2026-00-10",
      "2026-1-01",
      "",
      "2026-11-22T00:00Z",
    ])
      expect(isCalendarDay(day), day).toBe(false);
  });
});

describe("today", () => {
  const now = new Date("2026-11-22T23:30:00Z");

  it("todayUtc: the server's today is the UTC day", () => {
    expect(todayUtc(now)).toBe("2026-11-22");
  });

  it("todayIn: the owner's today in their zone; an unknown zone counts as UTC", () => {
    expect(todayIn("UTC", now)).toBe("2026-11-22");
    expect(todayIn("Europe/Berlin", now)).toBe("2026-11-23");
    expect(todayIn("America/Los_Angeles", new Date("2026-11-22T05:00:00Z"))).toBe("2026-11-21");
    expect(todayIn("Pacific/Kiritimati", new Date("2026-11-22T10:00:00Z"))).toBe("2026-11-23"); // UTC+14
    expect(todayIn("Mars/Olympus", now)).toBe("2026-11-22");
  });

  it("todayIn agrees with the en-CA formatting the reservations used", () => {
    for (const zone of ["UTC", "Europe/Berlin", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"])
      for (const instant of [now, new Date("2026-02-28T22:00:00Z"), new Date("2028-12-31T12:00:00Z")])
        expect(todayIn(zone, instant)).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(instant));
  });

  it("hourIn: the wall clock's hour in a zone, across a DST change; an unknown zone counts as UTC", () => {
    expect(hourIn("UTC", now)).toBe(23);
    expect(hourIn("Pacific/Auckland", new Date("2026-11-23T18:00:00Z"))).toBe(7); // NZDT, UTC+13
    expect(hourIn("America/Los_Angeles", new Date("2026-11-24T14:59:59Z"))).toBe(6); // PST, UTC−8
    // 2027-03-14: Los Angeles springs forward at 02:00, so 07:00 PDT is 14:00 UTC (not 15:00).
    expect(hourIn("America/Los_Angeles", new Date("2027-03-14T14:00:00Z"))).toBe(7);
    expect(hourIn("Mars/Olympus", now)).toBe(23);
  });

  it("localToday: the runtime's own zone (the panel's form defaults)", () => {
    expect(localToday(new Date(2026, 0, 5, 0, 0))).toBe("2026-01-05");
    expect(localToday(new Date(2026, 11, 31, 23, 59))).toBe("2026-12-31");
  });
});

describe("day arithmetic", () => {
  it("addDays crosses months, years and leap days, both ways", () => {
    expect(addDays("2026-11-22", 0)).toBe("2026-11-22");
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-01-03", -3)).toBe("2025-12-31");
  });

  it("addDays and daysBetween are inverse, and agree with Date.UTC arithmetic", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -4000, max: 4000 }), (day, n) => {
        const later = addDays(day, n);
        const [y, m, d] = dayParts(day);
        return daysBetween(day, later) === n && later === new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
      }),
    );
  });

  it("daysBetween counts calendar days across months and leap days", () => {
    expect(daysBetween("2026-11-20", "2026-11-24")).toBe(4);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
    expect(daysBetween("2026-11-24", "2026-11-20")).toBe(-4);
  });

  it("formatDay and dayParts are inverse", () => {
    expect(formatDay(987, 3, 4)).toBe("0987-03-04");
    fc.assert(fc.property(anyDay, (day) => formatDay(...dayParts(day)) === day));
  });
});

describe("months", () => {
  it("daysInMonth follows the Gregorian leap rule", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2026, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(4, 2)).toBe(29); // no Date: years 0–99 are not shifted to 1900–1999
  });

  it("daysInMonth agrees with Date.UTC's day 0 from year 100 on", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        return daysInMonth(year, month) === new Date(Date.UTC(year, month, 0)).getUTCDate();
      }),
    );
  });

  it("addMonthsClamped clamps to the month's end and keeps the billing day", () => {
    expect(addMonthsClamped("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonthsClamped("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonthsClamped("2026-01-31", 3)).toBe("2026-04-30");
    expect(addMonthsClamped("2028-02-29", 12)).toBe("2029-02-28");
    expect(addMonthsClamped("2026-02-28", 1, 31)).toBe("2026-03-31"); // a clamped 31st returns to the 31st
    expect(addMonthsClamped("2026-11-15", 2)).toBe("2027-01-15");
    expect(addMonthsClamped("2026-03-31", -1)).toBe("2026-02-28");
    expect(addMonthsClamped("2026-01-15", -13)).toBe("2024-12-15");
  });

  it("addMonthsClamped never leaves the target month, and lands on the asked day when it exists", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -240, max: 240 }), fc.integer({ min: 1, max: 31 }), (day, months, anchor) => {
        const [y, m] = dayParts(day);
        const [ty, tm, td] = dayParts(addMonthsClamped(day, months, anchor));
        return ty * 12 + tm - (y * 12 + m) === months && td === Math.min(anchor, daysInMonth(ty, tm));
      }),
    );
  });
});
