// The daily brief's headline and notice title (pinned-wave2 §2.11): the pinned template, word for word.
import { describe, expect, it } from "vitest";
import { briefHeadline, briefTitle, type THeadlineFigures } from "./daily-brief-words";

const figures: THeadlineFigures = {
  date: "2026-11-24",
  locale: "en-US",
  currency: "EUR",
  inMinor: 123_456,
  outMinor: 200_000,
  netMinor: -76_544,
  cashMinor: 1_000_000,
  runway: { days: 1_278, runs_out_on: "2030-05-25", status: "finite" },
  pendingApprovals: 3,
};

describe("briefHeadline", () => {
  it("fills the pinned template in the owner's locale", () => {
    expect(briefHeadline(figures)).toBe(
      "Nov 24, 2026: in €1,234.56, out €2,000.00, net -€765.44. Cash €10,000.00. Runway 1,278 days. 3 approvals waiting.",
    );
  });

  it("says unknown without cash, not burning, and counts one day and one approval in the singular", () => {
    expect(
      briefHeadline({ ...figures, cashMinor: null, runway: { days: null, runs_out_on: null, status: "unknown" } }),
    ).toContain("Cash unknown. Runway unknown.");
    expect(briefHeadline({ ...figures, runway: { days: null, runs_out_on: null, status: "not_burning" } })).toContain(
      "Runway not burning.",
    );
    expect(
      briefHeadline({ ...figures, runway: { days: 1, runs_out_on: "2026-11-25", status: "finite" }, pendingApprovals: 1 }),
    ).toContain("Runway 1 day. 1 approval waiting.");
    expect(
      briefHeadline({ ...figures, runway: { days: 0, runs_out_on: "2026-11-24", status: "finite" }, pendingApprovals: 0 }),
    ).toContain("Runway 0 days. 0 approvals waiting.");
  });

  it("formats a currency without minor units exactly, and falls back to en-US for a locale the runtime refuses", () => {
    expect(
      briefHeadline({
        ...figures,
        currency: "JPY",
        inMinor: 1_500,
        outMinor: 0,
        netMinor: 1_500,
        cashMinor: 9_007_199_254_740_991,
      }),
    ).toBe("Nov 24, 2026: in ¥1,500, out ¥0, net ¥1,500. Cash ¥9,007,199,254,740,991. Runway 1,278 days. 3 approvals waiting.");
    expect(briefHeadline({ ...figures, locale: "not a locale!" })).toMatch(/^Nov 24, 2026: in 1234\.56 EUR, out 2000\.00 EUR/);
  });
});

describe("briefTitle", () => {
  it("names the day in the owner's locale", () => {
    expect(briefTitle("2026-11-24", "en-US")).toBe("Your brief for Tue, Nov 24");
    expect(briefTitle("2026-11-24", "en-GB")).toBe("Your brief for Tue 24 Nov");
  });
});
