// The ads formulas (§2.8) on hand-computed cases and as properties: ctr and cpc half even, null
// at a zero denominator; every day of a period listed, across month and year ends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../lib/days";
import { clickThroughRate, costPerClick, dailySeries } from "./ads-figures";

describe("ctr = clicks / impressions (§1.4 ratio)", () => {
  it("4 decimals, half even; null without impressions", () => {
    expect(clickThroughRate(1n, 3n)).toBe(0.3333);
    expect(clickThroughRate(2n, 3n)).toBe(0.6667);
    // 1 / 80000 = 0.0000125 → 0.125 units of 10⁻⁴ → 0 (half even rounds 0.125 down).
    expect(clickThroughRate(1n, 80_000n)).toBe(0);
    // 3 / 20000 = 1.5 units → 2 (to even); 5 / 20000 = 2.5 units → 2 (to even).
    expect(clickThroughRate(3n, 20_000n)).toBe(0.0002);
    expect(clickThroughRate(5n, 20_000n)).toBe(0.0002);
    expect(clickThroughRate(7n, 20_000n)).toBe(0.0004);
    expect(clickThroughRate(0n, 10n)).toBe(0);
    expect(clickThroughRate(5n, 0n)).toBeNull();
  });

  it("is within half a unit of 10⁻⁴ of the exact ratio, with at most 4 decimals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (clicks, impressions) => {
        const ctr = clickThroughRate(clicks, impressions)!;
        const units = BigInt(Math.round(ctr * 10_000));
        expect(Number(units) / 10_000).toBe(ctr);
        // |units · impressions − clicks · 10⁴| ≤ impressions / 2
        const error = units * impressions - clicks * 10_000n;
        expect(2n * (error < 0n ? -error : error) <= impressions).toBe(true);
      }),
    );
  });
});

describe("cpc = divideHalfEven(spend, clicks)", () => {
  it("rounds half to even; null without clicks", () => {
    expect(costPerClick(1_000n, 3n)).toBe(333n);
    expect(costPerClick(1_000n, 6n)).toBe(167n);
    // 5 / 2 = 2.5 → 2; 7 / 2 = 3.5 → 4; −5 / 2 = −2.5 → −2.
    expect(costPerClick(5n, 2n)).toBe(2n);
    expect(costPerClick(7n, 2n)).toBe(4n);
    expect(costPerClick(-5n, 2n)).toBe(-2n);
    expect(costPerClick(1_000n, 0n)).toBeNull();
  });

  it("is the nearest integer, ties to even", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (spend, clicks) => {
        const cpc = costPerClick(spend, clicks)!;
        const twiceError = 2n * (cpc * clicks - spend);
        const abs = twiceError < 0n ? -twiceError : twiceError;
        expect(abs <= clicks).toBe(true);
        if (abs === clicks) expect(cpc % 2n).toBe(0n);
      }),
    );
  });
});

describe("daily: every day of the period", () => {
  it("fills days without spend with 0, across a month end and a leap day", () => {
    const series = dailySeries(
      "2028-02-27",
      "2028-03-02",
      new Map([
        ["2028-02-28", 500n],
        ["2028-03-01", 70n],
      ]),
      0n,
    );
    expect(series).toEqual([
      { date: "2028-02-27", value: 0n },
      { date: "2028-02-28", value: 500n },
      { date: "2028-02-29", value: 0n },
      { date: "2028-03-01", value: 70n },
      { date: "2028-03-02", value: 0n },
    ]);
    expect(dailySeries("2026-12-31", "2027-01-01", new Map(), 0n).map((d) => d.date)).toEqual(["2026-12-31", "2027-01-01"]);
    expect(dailySeries("2027-02-28", "2027-03-01", new Map(), 0n).map((d) => d.date)).toEqual(["2027-02-28", "2027-03-01"]);
  });

  it("lists to − from + 1 consecutive days and keeps every given day's value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 0, max: 365 }),
        fc.array(fc.tuple(fc.nat(365), fc.bigInt({ min: 1n, max: 10n ** 9n })), { maxLength: 20 }),
        (offset, length, spends) => {
          const from = addDays("2024-01-01", offset);
          const to = addDays(from, length);
          const byDay = new Map(spends.filter(([k]) => k <= length).map(([k, v]) => [addDays(from, k), v]));
          const series = dailySeries(from, to, byDay, 0n);
          expect(series).toHaveLength(daysBetween(from, to) + 1);
          series.forEach((d, k) => expect(d.date).toBe(addDays(from, k)));
          expect(series.reduce((s, d) => s + d.value, 0n)).toBe([...byDay.values()].reduce((s, v) => s + v, 0n));
        },
      ),
    );
  });
});
