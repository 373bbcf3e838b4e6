// Project health's rules (§2.9), pure: every penalty at its boundary, the status boundaries
// (70, 40), margin_drop's exact inequality, the largest-remainder allocation adding up
// exactly (property), capacity items, insufficient data.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocateCosts,
  capacityOf,
  isNearFull,
  isUnderused,
  scoreProject,
  statusOfScore,
  type TCapacityFact,
  type THealthInput,
} from "./project-health-score";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
const C = "00000000-0000-4000-8000-00000000000c";

/** A healthy project: positive margin, steady, no capacity, accurate coverage, events. */
function input(overrides: Partial<THealthInput> = {}): THealthInput {
  return {
    currency: "EUR",
    period: { from: "2026-04-11", to: "2026-05-10" },
    previous: { from: "2026-03-12", to: "2026-04-10" },
    revenueMinor: 10_000n,
    costsMinor: 4_000n,
    marginMinor: 6_000n,
    previousMarginMinor: 6_000n,
    capacity: [],
    coverage: { revenue: "accurate", expenses: "mostly_covered" },
    countedEvents: 3,
    ...overrides,
  };
}

const seats = (used: number, total: number, name = "Seats tool"): TCapacityFact => ({
  subscriptionId: A,
  name,
  unit: "seats",
  total,
  used,
});

const codes = (i: THealthInput) => scoreProject(i).reasons.map((r) => r.code);

describe("penalties", () => {
  it("nothing wrong: 100, healthy, no reasons", () => {
    expect(scoreProject(input())).toEqual({ score: 100, status: "healthy", reasons: [] });
  });

  it("negative_margin −40 when margin < 0, not at 0", () => {
    expect(scoreProject(input({ marginMinor: -1n, previousMarginMinor: 0n })).score).toBe(60);
    expect(codes(input({ marginMinor: -1n, previousMarginMinor: 0n }))).toEqual(["negative_margin"]);
    expect(scoreProject(input({ marginMinor: 0n, previousMarginMinor: 0n })).score).toBe(100);
  });

  it("margin_drop −20 exactly when margin × 10 < previous × 8 (a drop of more than 20 %)", () => {
    // previous 1000: 800 is exactly 80 % (no penalty), 799 is below.
    expect(codes(input({ previousMarginMinor: 1000n, marginMinor: 800n }))).toEqual([]);
    expect(codes(input({ previousMarginMinor: 1000n, marginMinor: 799n }))).toEqual(["margin_drop"]);
    expect(scoreProject(input({ previousMarginMinor: 1000n, marginMinor: 799n })).score).toBe(80);
    // Odd values: 8 × 7 = 56, so 5.6 is the line: 6 × 10 = 60 ≥ 56 (none), 5 × 10 = 50 < 56.
    expect(codes(input({ previousMarginMinor: 7n, marginMinor: 6n }))).toEqual([]);
    expect(codes(input({ previousMarginMinor: 7n, marginMinor: 5n }))).toEqual(["margin_drop"]);
    // Only when the previous margin was positive.
    expect(codes(input({ previousMarginMinor: 0n, marginMinor: 0n }))).toEqual([]);
    expect(codes(input({ previousMarginMinor: -100n, marginMinor: -500n }))).toEqual(["negative_margin"]);
    // A positive margin turned negative: both.
    expect(codes(input({ previousMarginMinor: 100n, marginMinor: -1n }))).toEqual(["negative_margin", "margin_drop"]);
  });

  it("margin_drop agrees with the rational inequality margin < 0.8 × previous (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (m, p) => {
        const dropped = codes(input({ marginMinor: m, previousMarginMinor: p })).includes("margin_drop");
        // m < 0.8 p  ⇔  5m < 4p (integers, no rounding).
        expect(dropped).toBe(5n * m < 4n * p);
      }),
    );
  });

  it("capacity_near_full −10 at used / total ≥ 0.9; capacity_underused −10 below 0.2", () => {
    expect(codes(input({ capacity: [seats(9, 10)] }))).toEqual(["capacity_near_full"]);
    expect(codes(input({ capacity: [seats(8, 10)] }))).toEqual([]);
    // 8999 / 10000 is 0.8999 (0.9 at 4 decimals would be rounding): not near full.
    expect(codes(input({ capacity: [seats(8999, 10_000)] }))).toEqual([]);
    expect(codes(input({ capacity: [seats(9000, 10_000)] }))).toEqual(["capacity_near_full"]);
    expect(codes(input({ capacity: [seats(2, 10)] }))).toEqual([]);
    expect(codes(input({ capacity: [seats(1, 10)] }))).toEqual(["capacity_underused"]);
    expect(codes(input({ capacity: [seats(1999, 10_000)] }))).toEqual(["capacity_underused"]);
    expect(scoreProject(input({ capacity: [seats(10, 10)] })).score).toBe(90);
    // Each code once, however many items meet it; both codes when items differ.
    const mixed = [seats(10, 10, "A"), seats(19, 20, "B"), seats(0, 10, "C")];
    expect(codes(input({ capacity: mixed }))).toEqual(["capacity_near_full", "capacity_underused"]);
    expect(scoreProject(input({ capacity: mixed })).score).toBe(80);
    // A total of 0 says nothing.
    expect(isNearFull(seats(0, 0)) || isUnderused(seats(0, 0))).toBe(false);
  });

  it("coverage_gap −20 when the business's revenue or expenses coverage is incomplete or missing", () => {
    expect(codes(input({ coverage: { revenue: "incomplete", expenses: "accurate" } }))).toEqual(["coverage_gap"]);
    expect(codes(input({ coverage: { revenue: "accurate", expenses: "missing" } }))).toEqual(["coverage_gap"]);
    expect(codes(input({ coverage: { revenue: "mostly_covered", expenses: "mostly_covered" } }))).toEqual([]);
    expect(scoreProject(input({ coverage: { revenue: "missing", expenses: "missing" } })).score).toBe(80);
  });

  it("every penalty at once: 100 − 100 = 0, at_risk", () => {
    const worst = input({
      marginMinor: -1n,
      previousMarginMinor: 10n,
      capacity: [seats(10, 10, "Full"), seats(0, 10, "Idle")],
      coverage: { revenue: "missing", expenses: "incomplete" },
    });
    expect(scoreProject(worst).score).toBe(0);
    expect(scoreProject(worst).status).toBe("at_risk");
    expect(codes(worst)).toEqual(["negative_margin", "margin_drop", "capacity_near_full", "capacity_underused", "coverage_gap"]);
  });
});

describe("status", () => {
  it("healthy ≥ 70, watch 40–69, at_risk < 40, insufficient_data without a score", () => {
    expect(statusOfScore(100)).toBe("healthy");
    expect(statusOfScore(70)).toBe("healthy");
    expect(statusOfScore(69)).toBe("watch");
    expect(statusOfScore(40)).toBe("watch");
    expect(statusOfScore(39)).toBe("at_risk");
    expect(statusOfScore(0)).toBe("at_risk");
    expect(statusOfScore(null)).toBe("insufficient_data");
  });

  it("reaches each boundary through penalties: 70, 60, 40, 30", () => {
    // coverage_gap + capacity_near_full = 30 → 70, healthy.
    const seventy = input({ coverage: { revenue: "missing", expenses: "accurate" }, capacity: [seats(10, 10)] });
    expect(scoreProject(seventy)).toMatchObject({ score: 70, status: "healthy" });
    // negative_margin = 40 → 60, watch.
    expect(scoreProject(input({ marginMinor: -5n, previousMarginMinor: 0n }))).toMatchObject({ score: 60, status: "watch" });
    // negative_margin + coverage_gap = 60 → 40, watch.
    const forty = input({ marginMinor: -5n, previousMarginMinor: 0n, coverage: { revenue: "incomplete", expenses: "accurate" } });
    expect(scoreProject(forty)).toMatchObject({ score: 40, status: "watch" });
    // + capacity_underused = 70 → 30, at_risk.
    expect(scoreProject({ ...forty, capacity: [seats(0, 5)] })).toMatchObject({ score: 30, status: "at_risk" });
  });

  it("insufficient_data: no counted event in either period, whatever else holds", () => {
    const none = scoreProject(input({ countedEvents: 0, marginMinor: -100n, capacity: [seats(10, 10)] }));
    expect(none.score).toBeNull();
    expect(none.status).toBe("insufficient_data");
    expect(none.reasons.map((r) => r.code)).toEqual(["insufficient_data"]);
    expect(none.reasons[0]!.detail).toContain("2026-04-11 to 2026-05-10");
  });
});

describe("reasons read as words with the figures", () => {
  it("names amounts, capacities and coverage", () => {
    const result = scoreProject(
      input({
        revenueMinor: 10_000n,
        costsMinor: 12_550n,
        marginMinor: -2_550n,
        previousMarginMinor: 3_000n,
        capacity: [seats(19, 20, "Design seats"), seats(1, 20, "CI minutes")],
        coverage: { revenue: "incomplete", expenses: "accurate" },
      }),
    );
    const detail = Object.fromEntries(result.reasons.map((r) => [r.code, r.detail]));
    expect(detail.negative_margin).toBe("Costs of 125.50 EUR exceeded revenue of 100.00 EUR: margin -25.50 EUR.");
    expect(detail.margin_drop).toBe("Margin fell from 30.00 EUR in the previous period to -25.50 EUR, more than 20% lower.");
    expect(detail.capacity_near_full).toBe("Nearly full (90% or more): Design seats: 19 of 20 seats used (95%).");
    expect(detail.capacity_underused).toBe("Under 20% used: CI minutes: 1 of 20 seats used (5%).");
    expect(detail.coverage_gap).toMatch(/^The business's revenue data is incomplete: figures may be partial/);
  });
});

describe("allocated costs (largest remainder)", () => {
  it("splits each subscription's cost over its allocations; remainders to the largest share first", () => {
    // 100 over 3334/3333/3333: 34, 33, 33 (the largest share, then project id, takes the unit).
    const split = allocateCosts(
      new Map([["s1", 100n]]),
      new Map([
        [
          "s1",
          [
            { projectId: C, shareBps: 3333 },
            { projectId: A, shareBps: 3334 },
            { projectId: B, shareBps: 3333 },
          ],
        ],
      ]),
    );
    expect(split).toEqual(
      new Map([
        [A, 34n],
        [B, 33n],
        [C, 33n],
      ]),
    );
  });

  it("adds up exactly, per subscription and in total (property, credits included)", () => {
    const shares = fc
      .array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 })
      .map((weights) => {
        const sum = weights.reduce((a, b) => a + b, 0);
        const bps = weights.map((w) => Math.floor((w * 10_000) / sum));
        bps[0]! += 10_000 - bps.reduce((a, b) => a + b, 0);
        return bps;
      })
      .filter((bps) => bps.every((b) => b > 0));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(shares, fc.bigInt({ min: -(10n ** 10n), max: 10n ** 12n })), { minLength: 1, maxLength: 5 }),
        (subscriptions) => {
          const projects = [A, B, C, "d", "e", "f"];
          const costs = new Map(subscriptions.map(([, cost], i) => [`s${i}`, cost]));
          const allocations = new Map(
            subscriptions.map(([bps], i) => [`s${i}`, bps.map((shareBps, j) => ({ projectId: projects[j]!, shareBps }))]),
          );
          const byProject = allocateCosts(costs, allocations);
          const total = [...byProject.values()].reduce((a, b) => a + b, 0n);
          expect(total).toBe([...costs.values()].reduce((a, b) => a + b, 0n));
          // Each subscription's parts stay within one minor unit of the exact share.
          for (const [id, cost] of costs) {
            const one = allocateCosts(new Map([[id, cost]]), allocations);
            for (const { projectId, shareBps } of allocations.get(id)!) {
              const exact = (cost * BigInt(shareBps)) / 10_000n;
              const diff = one.get(projectId)! - exact;
              expect(diff >= -1n && diff <= 1n).toBe(true);
            }
          }
        },
      ),
    );
  });

  it("ignores a subscription without allocations", () => {
    expect(allocateCosts(new Map([["s1", 500n]]), new Map())).toEqual(new Map());
  });
});

describe("capacity block", () => {
  it("lists items by name with utilization to 4 decimals, and the highest", () => {
    expect(
      capacityOf([
        { subscriptionId: B, name: "Storage", unit: "GB", total: 3, used: 2 },
        { subscriptionId: A, name: "Seats", unit: "seats", total: 10, used: 9 },
        { subscriptionId: C, name: "Unset", unit: "calls", total: 0, used: 0 },
      ]),
    ).toEqual({
      max_utilization: 0.9,
      items: [
        { subscription_id: A, name: "Seats", unit: "seats", total: 10, used: 9, utilization: 0.9 },
        { subscription_id: B, name: "Storage", unit: "GB", total: 3, used: 2, utilization: 0.6667 },
        { subscription_id: C, name: "Unset", unit: "calls", total: 0, used: 0, utilization: null },
      ],
    });
    expect(capacityOf([])).toEqual({ max_utilization: null, items: [] });
  });
});
