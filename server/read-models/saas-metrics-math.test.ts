import { describe, expect, it } from "vitest";
import { monthsOf, movementAmounts, netNew, NO_DELTAS } from "./saas-metrics-math";

describe("monthsOf", () => {
  it("splits a period into calendar months, clipped at both ends", () => {
    expect(monthsOf("2026-01-15", "2026-03-02")).toEqual([
      { month: "2026-01", from: "2026-01-15", to: "2026-01-31" },
      { month: "2026-02", from: "2026-02-01", to: "2026-02-28" },
      { month: "2026-03", from: "2026-03-01", to: "2026-03-02" },
    ]);
    expect(monthsOf("2024-02-29", "2024-02-29")).toEqual([{ month: "2024-02", from: "2024-02-29", to: "2024-02-29" }]);
    expect(monthsOf("2025-12-31", "2026-01-01").map((m) => m.month)).toEqual(["2025-12", "2026-01"]);
  });

  it("a 366-day period has 13 months at most", () => {
    expect(monthsOf("2025-05-10", "2026-05-10")).toHaveLength(13);
  });
});

describe("movements", () => {
  it("contraction and churned are magnitudes; net new subtracts them", () => {
    const amounts = movementAmounts({
      ...NO_DELTAS,
      new: 900n,
      expansion: 500n,
      reactivation: 300n,
      contraction: -800n,
      churned: -500n,
    });
    expect(amounts).toEqual({ new: 900n, expansion: 500n, reactivation: 300n, contraction: 800n, churned: 500n });
    expect(netNew(amounts)).toBe(400n);
  });
});
