import { describe, expect, it } from "vitest";
import { actionLabel, auditFiltersFrom, auditHref, NO_AUDIT_FILTERS, targetLabel } from "./audit-labels";

describe("the audit log's words", () => {
  it("reads actions as sentences, known subjects by their panel names", () => {
    expect(actionLabel("reservation.released")).toBe("Budget reservation released");
    expect(actionLabel("cash_snapshot.replaced")).toBe("Cash balance replaced");
    expect(actionLabel("me.updated")).toBe("Profile updated");
    expect(actionLabel("subscription.allocations_replaced")).toBe("Subscription allocations replaced");
    expect(actionLabel("signal.payout_failed")).toBe("Signal: payout failed");
    expect(actionLabel("test_spend.create")).toBe("Test spend create");
    expect(actionLabel("odd")).toBe("Odd");
  });

  it("names record types, unknown ones humanised", () => {
    expect(targetLabel("budget_reservation")).toBe("Budget reservation");
    expect(targetLabel("owner")).toBe("Your profile");
    expect(targetLabel("data_request")).toBe("Data request");
  });
});

describe("the audit log's address", () => {
  it("carries only the filters that are set, and reads them back", () => {
    const href = auditHref({ target_type: "budget_reservation", target_id: "abc", action: "" });
    expect(href).toBe("/audit?target_type=budget_reservation&target_id=abc");
    expect(auditHref({})).toBe("/audit");
    const params = Object.fromEntries(new URL(href, "http://x").searchParams);
    expect(auditFiltersFrom(params)).toEqual({ ...NO_AUDIT_FILTERS, target_type: "budget_reservation", target_id: "abc" });
  });

  it("ignores unknown keys and repeated values", () => {
    expect(auditFiltersFrom({ action: ["a", "b"], other: "x", to: "2026-01-31" })).toEqual({
      ...NO_AUDIT_FILTERS,
      to: "2026-01-31",
    });
  });
});
