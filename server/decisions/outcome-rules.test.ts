// The pure rules of a decision's outcome (pinned-wave2 §3.2): windows, status and verdict.
import { describe, expect, it } from "vitest";
import { outcomeSpans, outcomeStatus, verdictOf } from "./outcome-rules";

describe("outcomeSpans", () => {
  it("window [D + 1, D + w], baseline [D − w + 1, D], across month ends", () => {
    expect(outcomeSpans("2026-05-01", 7)).toEqual({
      baseline: { from: "2026-04-25", to: "2026-05-01" },
      window: { from: "2026-05-02", to: "2026-05-08" },
    });
    expect(outcomeSpans("2024-02-29", 30)).toEqual({
      baseline: { from: "2024-01-31", to: "2024-02-29" },
      window: { from: "2024-03-01", to: "2024-03-30" },
    });
  });
});

describe("outcomeStatus", () => {
  it("pending while window.to ≥ today; then inconclusive only when coverage is missing", () => {
    expect(outcomeStatus("2026-05-08", "2026-05-08", "accurate")).toBe("pending");
    expect(outcomeStatus("2026-05-08", "2026-05-07", "missing")).toBe("pending");
    expect(outcomeStatus("2026-05-08", "2026-05-09", "missing")).toBe("inconclusive");
    for (const coverage of ["accurate", "mostly_covered", "incomplete"] as const) {
      expect(outcomeStatus("2026-05-08", "2026-05-09", coverage)).toBe("measured");
    }
  });
});

describe("verdictOf", () => {
  it("as_expected up to exactly 10 % of the expectation either way, else by the metric's good direction", () => {
    expect(verdictOf("revenue", 10n, 100n)).toBe("as_expected");
    expect(verdictOf("revenue", -10n, 100n)).toBe("as_expected");
    expect(verdictOf("revenue", 11n, 100n)).toBe("better");
    expect(verdictOf("net", -11n, 100n)).toBe("worse");
    expect(verdictOf("outflow", -11n, -100n)).toBe("better");
    expect(verdictOf("ad_spend", 11n, 100n)).toBe("worse");
    // A negative expectation counts by its size.
    expect(verdictOf("outflow", 10n, -100n)).toBe("as_expected");
  });

  it("an expected 0 needs a variance of exactly 0", () => {
    expect(verdictOf("net", 0n, 0n)).toBe("as_expected");
    expect(verdictOf("net", 1n, 0n)).toBe("better");
    expect(verdictOf("outflow", 1n, 0n)).toBe("worse");
  });
});
