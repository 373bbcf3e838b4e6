import { describe, expect, it } from "vitest";
import {
  adAccountText,
  approvalKindLabel,
  effectiveText,
  outcomeText,
  resourceText,
  type TApprovalNames,
} from "./approval-words";

const names: TApprovalNames = {
  businesses: { "b-1": "Kiosk" },
  integrations: { "i-1": { name: "Social ads", account_id: "act_42", business_id: "b-1" } },
};
const day = (iso: string) => `day ${iso}`;

describe("approval words", () => {
  it("calls a held write a proposed change, never a 'Held write'", () => {
    expect(approvalKindLabel("write")).toBe("Proposed change");
    expect(approvalKindLabel("request")).toBe("Request");
  });

  it("names where a grant applies by the business's name, never business:<uuid>", () => {
    expect(resourceText("business:b-1", names)).toBe("the business Kiosk");
    expect(resourceText("business:gone", names)).toBe("a business that is no longer listed");
    expect(resourceText("*", names)).toBe("everything you own");
    expect(resourceText(undefined, names)).toBe("somewhere not said");
  });

  it("names the ad account and its business", () => {
    expect(adAccountText("i-1", names)).toBe("Social ads (act_42) of Kiosk");
    expect(adAccountText("i-2", names)).toBeNull();
    expect(adAccountText(undefined, names)).toBeNull();
  });

  it("says when a change takes effect: the day it names, the day of approval, or the day it was made", () => {
    expect(effectiveText({ effective_on: "2026-12-09", status: "pending", decided_at: null }, day)).toBe("From day 2026-12-09");
    expect(effectiveText({ status: "pending", decided_at: null }, day)).toBe("From the day you approve");
    // An auto-approved change (within its limits) took effect when it was made, not "when you approve".
    expect(effectiveText({ status: "auto_approved", decided_at: "2026-12-07T10:00:00.000Z" }, day)).toBe("From day 2026-12-07");
  });

  it("says what approving did in words, never as JSON", () => {
    const budget = { status: "succeeded", data: { new_daily_budget_minor: 7000, counted_daily_minor: 2000, currency: "EUR" } };
    expect(outcomeText(budget, "en-US", "EUR")).toBe(
      "Done: the daily budget is now €70.00, and €20.00 a day counts against the agent's limit.",
    );
    expect(outcomeText(budget, "de-DE", "EUR")).toBe(
      "Done: the daily budget is now 70,00\u00a0€, and 20,00\u00a0€ a day counts against the agent's limit.",
    );
    expect(outcomeText({ status: "succeeded", data: { granted: { scope: "ads" } } }, "en-US", null)).toBe(
      "Done: the agent has the permission.",
    );
    expect(outcomeText({ status: "succeeded", data: null }, "en-US", null)).toBe("Done.");
    expect(outcomeText({ status: "needs_owner_action", data: { message: "Connect it in Integrations." } }, "en-US", null)).toBe(
      "Connect it in Integrations.",
    );
    expect(outcomeText({ status: "failed" }, "en-US", null)).toBe("It failed.");
    expect(outcomeText(null, "en-US", null)).toBe("Done.");
  });
});
