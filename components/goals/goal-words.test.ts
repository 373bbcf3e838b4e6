import { describe, expect, it } from "vitest";
import type { TGoal } from "@/server/goals/goal.schema";
import { barValue, isOverCap, percentText, progressText, targetText } from "./goal-words";

function goal(overrides: Partial<TGoal>): TGoal {
  return {
    id: "00000000-0000-4000-8000-000000000000",
    business_id: null,
    project_id: null,
    personal: true,
    kind: "save",
    name: "Buffer",
    target_amount_minor: 100_000,
    currency: "EUR",
    target_days: null,
    target_date: null,
    status: "active",
    progress: { current_minor: 84_000, current_days: null, ratio: 0.84, as_of: "2027-06-15T10:00:00.000Z" },
    created_at: "2027-06-10T09:00:00.000Z",
    updated_at: "2027-06-10T09:00:00.000Z",
    ...overrides,
  };
}

describe("goal words", () => {
  it("percentages with at most one decimal; the bar from 0 to 100", () => {
    expect(percentText(0.3625)).toBe("36.3%");
    expect(percentText(1)).toBe("100%");
    expect(percentText(20)).toBe("2,000%");
    expect([barValue(-0.5), barValue(0.3625), barValue(1.7), barValue(null)]).toEqual([0, 36, 100, 0]);
  });

  it("targets: money in its currency, runway in days", () => {
    expect(targetText(goal({}))).toBe("€1,000.00");
    expect(targetText(goal({ kind: "runway", target_amount_minor: null, currency: null, target_days: 180 }))).toBe("180 days");
  });

  it("says what was measured, and why nothing could be", () => {
    expect(progressText(goal({}))).toBe("Free capital over the next 30 days: €840.00 of €1,000.00.");
    expect(progressText(goal({ progress: { current_minor: null, current_days: null, ratio: null, as_of: "x" } }))).toMatch(
      /No cash balance/,
    );
    expect(
      progressText(goal({ kind: "revenue", progress: { current_minor: 49_000, current_days: null, ratio: 0.49, as_of: "x" } })),
    ).toBe("Net revenue since 2027-06-10: €490.00 of €1,000.00.");
    const runway = { kind: "runway" as const, target_amount_minor: null, currency: null, target_days: 365 };
    expect(
      progressText(goal({ ...runway, progress: { current_minor: null, current_days: 222, ratio: 0.6082, as_of: "x" } })),
    ).toBe("Runway: 222 of 365 days.");
    expect(
      progressText(goal({ ...runway, progress: { current_minor: null, current_days: null, ratio: 1, as_of: "x" } })),
    ).toMatch(/Not burning/);
    expect(
      progressText(goal({ ...runway, progress: { current_minor: null, current_days: null, ratio: null, as_of: "x" } })),
    ).toMatch(/Runway unknown/);
    expect(progressText(goal({ currency: "BRL", progress: null }))).toMatch(/no exchange rate for BRL/);
  });

  it("a spending cap passed reads as bad news", () => {
    const cap = { kind: "spend_cap" as const };
    expect(isOverCap(goal({ ...cap, progress: { current_minor: 1, current_days: null, ratio: 1.2, as_of: "x" } }))).toBe(true);
    expect(isOverCap(goal({ ...cap }))).toBe(false);
    expect(isOverCap(goal({ progress: { current_minor: 1, current_days: null, ratio: 1.2, as_of: "x" } }))).toBe(false);
  });
});
