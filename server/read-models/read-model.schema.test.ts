import { describe, expect, it } from "vitest";
import { ratio, zCoverageOf } from "./read-model.schema";

describe("ratio", () => {
  it("4 decimals, half even; null when the denominator is 0", () => {
    expect(ratio(1n, 3n)).toBe(0.3333);
    expect(ratio(2n, 3n)).toBe(0.6667);
    expect(ratio(1n, 20000n)).toBe(0.0); // 0.00005 → half even → 0
    expect(ratio(3n, 20000n)).toBe(0.0002); // 0.00015 → 0.0002
    expect(ratio(-1n, 3n)).toBe(-0.3333);
    expect(ratio(5n, 0n)).toBeNull();
  });
});

describe("zCoverageOf", () => {
  it("overall and exactly the named domains", () => {
    const schema = zCoverageOf(["cash", "revenue"]);
    expect(schema.parse({ overall: "missing", cash: "accurate", revenue: "incomplete" })).toEqual({
      overall: "missing",
      cash: "accurate",
      revenue: "incomplete",
    });
    expect(schema.safeParse({ overall: "missing", cash: "fresh", revenue: "incomplete" }).success).toBe(false);
  });
});
