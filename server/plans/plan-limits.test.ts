import { describe, expect, it } from "vitest";
import { exceededLimits, limitsOf, PLAN_LIMITS } from "./plan-limits";
import { effectiveStatus } from "./plan-service";

describe("the limits table", () => {
  it("is the pinned one; business is unlimited; an unknown stored plan counts as free", () => {
    expect(PLAN_LIMITS.free).toEqual({
      businesses: 3,
      projects: 10,
      agents: 2,
      integrations: 3,
      events_per_month: 1000,
      imports_per_month: 10,
    });
    expect(PLAN_LIMITS.pro).toEqual({
      businesses: 25,
      projects: 250,
      agents: 20,
      integrations: 30,
      events_per_month: 100_000,
      imports_per_month: 500,
    });
    expect(Object.values(PLAN_LIMITS.business).every((limit) => limit === null)).toBe(true);
    expect(limitsOf("gold")).toEqual(PLAN_LIMITS.free);
  });

  it("names what a usage is over, in the table's order; at the limit is not over", () => {
    const usage = { businesses: 4, projects: 10, agents: 0, integrations: 0, events_per_month: 1001, imports_per_month: 0 };
    expect(exceededLimits(PLAN_LIMITS.free, usage)).toEqual([
      { limit: "businesses", used: 4, allowed: 3 },
      { limit: "events_per_month", used: 1001, allowed: 1000 },
    ]);
    expect(exceededLimits(PLAN_LIMITS.business, usage)).toEqual([]);
  });
});

describe("effectiveStatus", () => {
  const end = new Date("2030-01-15T10:00:00Z");
  it("a trial is expired from its end on, before anything stored it", () => {
    expect(effectiveStatus({ planStatus: "trialing", trialEndsAt: end }, new Date(end.getTime() - 1))).toBe("trialing");
    expect(effectiveStatus({ planStatus: "trialing", trialEndsAt: end }, end)).toBe("expired");
    expect(effectiveStatus({ planStatus: "expired", trialEndsAt: end }, new Date(0))).toBe("expired");
    expect(effectiveStatus({ planStatus: "active", trialEndsAt: null }, end)).toBe("active");
  });
});
