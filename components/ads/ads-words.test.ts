// The Ads tab's words: platform names, counts and ratios in the owner's locale, a signal's text
// and subject, every account's signals newest first, the period's refusals by field.
import { describe, expect, it } from "vitest";
import {
  accountTitle,
  allSignals,
  formatCount,
  formatRatioPercent,
  parsePeriodParam,
  periodErrors,
  platformName,
  signalSubject,
  signalText,
  type TAdsAccount,
} from "./ads-words";

describe("ads words", () => {
  it("names platforms as the catalog does, an unknown one as sent", () => {
    expect(platformName("social_ads")).toBe("Social Ads");
    expect(platformName("search_ads")).toBe("Search Ads");
    expect(platformName("other")).toBe("other");
    expect(accountTitle({ platform: "search_ads", account_id: "cust_9" })).toBe("Search Ads · cust_9");
    expect(accountTitle({ platform: "other", account_id: null })).toBe("other · no account id");
  });

  it("formats counts and the API's ratios (4 decimals) as percentages", () => {
    expect(formatCount(5_600_000, "en-US")).toBe("5,600,000");
    expect(formatCount(1_234, "de-DE")).toBe("1.234");
    expect(formatRatioPercent(0.0225, "en-US")).toBe("2.25%");
    expect(formatRatioPercent(0.0002, "en-US")).toBe("0.02%");
    expect(formatRatioPercent(0, "en-US")).toBe("0%");
    expect(formatRatioPercent(null, "en-US")).toBe("—");
    expect(formatCount(12, "not a locale")).toBe("12");
  });

  it("says what a signal is: the platform's message, else the code's words; and what it names", () => {
    expect(signalText({ code: "campaign_paused", message: null })).toBe("An ad campaign was paused.");
    expect(signalText({ code: "ad_disapproved", message: "Policy 4.2" })).toBe("Policy 4.2");
    expect(signalSubject({ account_id: "act_1", campaign_id: "c1", ad_id: "ad_7" })).toBe("Campaign c1 · ad ad_7");
    expect(signalSubject({ account_id: "act_1" })).toBeNull();
  });

  it("lists every account's signals newest first", () => {
    const account = (id: string, times: string[]) =>
      ({
        account_id: id,
        signals: times.map((at) => ({ code: "budget_limited", severity: "warning", occurred_at: at, ref: {}, message: null })),
      }) as unknown as TAdsAccount;
    const list = allSignals([
      account("a", ["2026-03-01T10:00:00.000Z"]),
      account("b", ["2026-03-02T10:00:00.000Z", "2026-02-01T00:00:00.000Z"]),
    ]);
    expect(list.map((s) => [s.account.account_id, s.occurred_at.slice(0, 10)])).toEqual([
      ["b", "2026-03-02"],
      ["a", "2026-03-01"],
      ["b", "2026-02-01"],
    ]);
  });

  it("reads the period's parameters and the API's refusals by field", () => {
    expect(parsePeriodParam(" 2026-03-01 ")).toBe("2026-03-01");
    expect(parsePeriodParam(["2026-03-01", "x"])).toBe("2026-03-01");
    expect(parsePeriodParam("")).toBeUndefined();
    expect(parsePeriodParam(undefined)).toBeUndefined();
    expect(
      periodErrors([
        { path: "from", message: "must not be after to (2026-03-01)" },
        { path: "to", message: "Invalid ISO date" },
        { path: "display_currency", message: "no" },
      ]),
    ).toEqual({ from: "Must not be after to (2026-03-01).", to: "Invalid ISO date." });
  });
});
