import { describe, expect, it } from "vitest";
import { parseSaasPeriod, periodQuery, presetRange } from "./period";

describe("SaaS periods", () => {
  it("presets end today: 30 and 90 days, or 12 calendar months from the first of the month", () => {
    expect(presetRange("30d", "2026-05-10")).toEqual({ from: "2026-04-11", to: "2026-05-10" });
    expect(presetRange("90d", "2026-05-10")).toEqual({ from: "2026-02-10", to: "2026-05-10" });
    expect(presetRange("12m", "2026-05-10")).toEqual({ from: "2025-06-01", to: "2026-05-10" });
    expect(presetRange("12m", "2026-12-31")).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    expect(presetRange("12m", "2026-01-31")).toEqual({ from: "2025-02-01", to: "2026-01-31" });
  });

  it("from/to win over a preset; anything unknown is the last 30 days", () => {
    expect(parseSaasPeriod({ period: "90d" }, "2026-05-10")).toEqual({
      kind: "preset",
      id: "90d",
      from: "2026-02-10",
      to: "2026-05-10",
    });
    expect(parseSaasPeriod({ period: "90d", from: "2026-01-01", to: "2026-01-31" }, "2026-05-10")).toEqual({
      kind: "custom",
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(parseSaasPeriod({ from: "2026-02-30" }, "2026-05-10")).toMatchObject({ kind: "preset", id: "30d" });
    expect(parseSaasPeriod({ period: "7y" }, "2026-05-10")).toMatchObject({ kind: "preset", id: "30d" });
  });

  it("links keep what is not the default", () => {
    expect(periodQuery({ kind: "preset", id: "30d", from: "a", to: "b" })).toEqual({});
    expect(periodQuery({ kind: "preset", id: "12m", from: "a", to: "b" })).toEqual({ period: "12m" });
    expect(periodQuery({ kind: "custom", from: "2026-01-01" })).toEqual({ from: "2026-01-01" });
  });
});
