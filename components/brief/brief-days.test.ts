import { describe, expect, it } from "vitest";
import { briefDayOf, briefHref, briefNav } from "./brief-days";

const TODAY = "2026-11-24";

describe("briefDayOf", () => {
  it("shows the asked day when it has begun, else today with a notice", () => {
    expect(briefDayOf(undefined, TODAY, "UTC")).toEqual({ date: TODAY, notice: null });
    expect(briefDayOf("2026-11-20", TODAY, "UTC")).toEqual({ date: "2026-11-20", notice: null });
    expect(briefDayOf(["2026-11-19", "x"], TODAY, "UTC").date).toBe("2026-11-19");
    expect(briefDayOf("2026-11-25", TODAY, "Pacific/Auckland")).toEqual({
      date: TODAY,
      notice: "2026-11-25 has not begun yet in Pacific/Auckland, so today's brief is shown.",
    });
    expect(briefDayOf("2026-02-30", TODAY, "UTC").notice).toMatch(/is not a day/);
    expect(briefDayOf("yesterday", TODAY, "UTC").date).toBe(TODAY);
  });
});

describe("briefNav", () => {
  it("goes back any day, forward to today and no further", () => {
    expect(briefNav("2026-11-20", TODAY)).toEqual({ previous: "2026-11-19", next: "2026-11-21" });
    expect(briefNav(TODAY, TODAY)).toEqual({ previous: "2026-11-23", next: null });
    expect(briefNav("2026-03-01", TODAY)).toEqual({ previous: "2026-02-28", next: "2026-03-02" });
  });

  it("links today's brief without a date", () => {
    expect(briefHref(TODAY, TODAY)).toBe("/brief");
    expect(briefHref("2026-11-01", TODAY)).toBe("/brief?date=2026-11-01");
  });
});
