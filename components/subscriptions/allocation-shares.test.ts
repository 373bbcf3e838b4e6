// A subscription's split as the allocation editor types it: percent with at most two decimals,
// exactly in basis points, and the amount each share stands for.
import { describe, expect, it } from "vitest";
import { bpsToPercent, percentToBps, shareAmount } from "./allocation-shares";

describe("percentToBps and bpsToPercent", () => {
  it("reads a percentage with up to two decimals exactly", () => {
    expect(["60", "33.33", "33,33", "0.5", "100", " 12.5 ", "", "1 0"].map(percentToBps)).toEqual([
      6000, 3333, 3333, 50, 10_000, 1250, 0, 1000,
    ]);
  });

  it("refuses three decimals, signs, words and more than 100 %", () => {
    expect(["33.333", "-5", "+5", "ten", "100.01", "1000", "1e2"].map(percentToBps)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("writes basis points as a percentage with two decimals, and reads back what it writes", () => {
    expect([6000, 3333, 5, 0, 10_000].map(bpsToPercent)).toEqual(["60.00", "33.33", "0.05", "0.00", "100.00"]);
    for (const bps of [1, 99, 101, 3333, 9999]) expect(percentToBps(bpsToPercent(bps))).toBe(bps);
  });
});

describe("shareAmount", () => {
  const subscription = {
    amount_minor: 1000,
    currency: "EUR",
    allocations: [
      { project_id: "web", share_bps: 3333, amount_minor: 334 },
      { project_id: "app", share_bps: 6667, amount_minor: 666 },
    ],
  };

  it("shows the server's exact split for a share as saved", () => {
    expect(shareAmount(subscription, "web", 3333)).toBe("€3.34");
    expect(shareAmount(subscription, "app", 6667)).toBe("€6.66");
  });

  it("marks an estimate for a share being edited (rounded down, in the subscription's currency)", () => {
    expect(shareAmount(subscription, "web", 5000)).toBe("≈ €5.00");
    expect(shareAmount(subscription, "new", 3333)).toBe("≈ €3.33");
    expect(shareAmount({ ...subscription, currency: "JPY", amount_minor: 999 }, "new", 5000)).toBe("≈ ¥499");
  });

  it("shows a dash for an amount the server cannot express, and the saved share's dash too", () => {
    expect(shareAmount({ ...subscription, amount_minor: null }, "new", 5000)).toBe("—");
    const unknown = { ...subscription, allocations: [{ project_id: "web", share_bps: 5000, amount_minor: null }] };
    expect(shareAmount(unknown, "web", 5000)).toBe("—");
  });
});
