import { describe, expect, it } from "vitest";
import { burnOf, burnWindow, runwayOf } from "./burn";

describe("burn (K8)", () => {
  it("measures 90 days ending on the reference day", () => {
    expect(burnWindow("2027-03-31")).toEqual({ from: "2027-01-01", to: "2027-03-31" });
  });

  it("is a third of the 90-day burn, half to even; 0 when not burning", () => {
    expect(burnOf(100n, 400n)).toEqual({ netBurn90: 300n, monthlyNetMinor: 100n, monthlyGrossMinor: 133n });
    // 301 / 3 = 100.33 → 100; 302 / 3 = 100.67 → 101; 400 / 3 = 133.33 → 133.
    expect(burnOf(0n, 301n).monthlyNetMinor).toBe(100n);
    expect(burnOf(0n, 302n).monthlyNetMinor).toBe(101n);
    expect(burnOf(500n, 400n)).toEqual({ netBurn90: -100n, monthlyNetMinor: 0n, monthlyGrossMinor: 133n });
    expect(burnOf(0n, -30n)).toEqual({ netBurn90: -30n, monthlyNetMinor: 0n, monthlyGrossMinor: 0n });
  });
});

describe("runway (K8)", () => {
  it("is unknown without cash, not burning at net burn ≤ 0", () => {
    expect(runwayOf(null, 900n, "2027-03-01")).toEqual({ days: null, runs_out_on: null, status: "unknown" });
    expect(runwayOf(1000n, 0n, "2027-03-01")).toEqual({ days: null, runs_out_on: null, status: "not_burning" });
    expect(runwayOf(-5n, -1n, "2027-03-01")).toEqual({ days: null, runs_out_on: null, status: "not_burning" });
  });

  it("is floor(cash × 90 / net burn) days from the reference day; 0 with no cash left", () => {
    // 10 000 × 90 / 9 000 = 100 days.
    expect(runwayOf(10_000n, 9_000n, "2027-03-01")).toEqual({ days: 100, runs_out_on: "2027-06-09", status: "finite" });
    // 10 000 × 90 / 7 000 = 128.57 → 128.
    expect(runwayOf(10_000n, 7_000n, "2027-03-01").days).toBe(128);
    expect(runwayOf(0n, 7_000n, "2027-03-01")).toEqual({ days: 0, runs_out_on: "2027-03-01", status: "finite" });
    expect(runwayOf(-1n, 7_000n, "2027-03-01")).toEqual({ days: 0, runs_out_on: "2027-03-01", status: "finite" });
  });

  it("shows no date past 9999-12-31 and no inexact day count", () => {
    expect(runwayOf(1_000_000_000n, 1n, "2027-03-01")).toEqual({ days: 90_000_000_000, runs_out_on: null, status: "finite" });
    expect(runwayOf(2n ** 60n, 1n, "2027-03-01")).toEqual({ days: null, runs_out_on: null, status: "finite" });
  });
});
