// The Overview's wording and shaping of the API's figures (no React, no API: pure functions).
import { describe, expect, it } from "vitest";
import { formatMinor } from "@/lib/money";
import {
  cashAsOfWords,
  commitmentKindWords,
  commitmentsCurrencies,
  coverageWords,
  formatAxisMinor,
  formatCalendarDay,
  forecastPoints,
  hasBalances,
  nothingMoved,
  parseDisplayCurrency,
  parseHorizon,
  runwayWords,
  shareWords,
  timelineDays,
} from "./figures";

describe("formatCalendarDay", () => {
  it("shows the day itself, whatever the zone (a calendar day is never shifted)", () => {
    expect(formatCalendarDay("2026-11-22", "en-US")).toBe("Nov 22, 2026");
    expect(formatCalendarDay("2026-01-01", "en-US")).toBe("Jan 1, 2026");
    expect(formatCalendarDay("2026-02-28", "en-US", "short")).toBe("Feb 28");
    expect(formatCalendarDay("2026-11-22", "de-DE")).toBe("22.11.2026");
  });

  it("falls back to en-US for a locale the runtime refuses", () => {
    expect(formatCalendarDay("2026-11-22", "not a locale!")).toBe("Nov 22, 2026");
  });
});

describe("runwayWords", () => {
  it("states a finite runway in days and the day cash runs out", () => {
    expect(runwayWords({ status: "finite", days: 1234, runs_out_on: "2030-04-09" }, "en-US")).toEqual({
      headline: "1,234 days",
      detail: "At the last 90 days' net burn, cash runs out on Apr 9, 2030.",
    });
    expect(runwayWords({ status: "finite", days: 1, runs_out_on: "2026-11-23" }, "en-US").headline).toBe("1 day");
    expect(runwayWords({ status: "finite", days: 0, runs_out_on: "2026-11-22" }, "en-US").headline).toBe("0 days");
  });

  it("says what to do when it is unknown, and that nothing burns when nothing does", () => {
    expect(runwayWords({ status: "unknown", days: null, runs_out_on: null }, "en-US")).toEqual({
      headline: "Unknown",
      detail: "Record a cash balance to see how long it lasts.",
    });
    expect(runwayWords({ status: "not_burning", days: null, runs_out_on: null }, "en-US").headline).toBe("Not burning");
  });
});

describe("cashAsOfWords and coverageWords", () => {
  it("names the moment the cash was observed, or that none is recorded", () => {
    const format = (iso: string) => `<${iso}>`;
    expect(cashAsOfWords({ amount_minor: 5, as_of: "2026-11-20T08:00:00.000Z" }, format)).toBe(
      "As of <2026-11-20T08:00:00.000Z>",
    );
    expect(cashAsOfWords(null, format)).toBe("No cash balance recorded yet");
  });

  it("gives every status words of its own (never colour alone)", () => {
    const labels = (["accurate", "mostly_covered", "incomplete", "missing"] as const).map(
      (status) => coverageWords(status).label,
    );
    expect(labels).toEqual(["Accurate", "Mostly covered", "Incomplete", "Missing"]);
    expect(
      new Set((["accurate", "mostly_covered", "incomplete", "missing"] as const).map((s) => coverageWords(s).tone)).size,
    ).toBe(4);
  });
});

describe("query parameters", () => {
  it("reads a display currency, upper-cased, or none", () => {
    expect(parseDisplayCurrency("usd")).toBe("USD");
    expect(parseDisplayCurrency(["JPY", "EUR"])).toBe("JPY");
    expect(parseDisplayCurrency(undefined)).toBeNull();
    expect(parseDisplayCurrency("")).toBeNull();
    expect(parseDisplayCurrency("XYZ")).toBeNull();
    expect(parseDisplayCurrency("EURO")).toBeNull();
  });

  it("reads a forecast horizon of 7, 30 or 90 days, else the default 30", () => {
    expect(parseHorizon("7")).toBe(7);
    expect(parseHorizon("90")).toBe(90);
    expect(parseHorizon(["30"])).toBe(30);
    for (const raw of [undefined, "", "31", "-7", "7.0x", "abc"]) expect(parseHorizon(raw)).toBe(30);
  });
});

describe("formatAxisMinor", () => {
  it("writes compact ticks from minor units in the currency's own digits", () => {
    expect(formatAxisMinor(1_234_500, "EUR", "en-US")).toBe("€12.3K");
    expect(formatAxisMinor(-150_000_000, "USD", "en-US")).toBe("-$1.5M");
    expect(formatAxisMinor(0, "EUR", "en-US")).toBe("€0");
    expect(formatAxisMinor(1_200_000, "JPY", "en-US")).toBe("¥1.2M"); // JPY has no minor unit
    expect(formatAxisMinor(1_234_567, "BHD", "en-US")).toBe("BHD\u00a01.2K"); // three decimals; Intl puts a no-break space after the code
  });
});

describe("forecastPoints", () => {
  it("keeps both balance lines per day, a missing balance as a gap", () => {
    const points = forecastPoints([
      { date: "2026-11-22", balance_committed_minor: 1000, balance_with_run_rate_minor: 900 },
      { date: "2026-11-23", balance_committed_minor: -50, balance_with_run_rate_minor: -300 },
    ]);
    expect(points).toEqual([
      { date: "2026-11-22", committed: 1000, runRate: 900 },
      { date: "2026-11-23", committed: -50, runRate: -300 },
    ]);
    expect(hasBalances(points)).toBe(true);
    expect(
      hasBalances(forecastPoints([{ date: "2026-11-22", balance_committed_minor: null, balance_with_run_rate_minor: null }])),
    ).toBe(false);
    expect(hasBalances([])).toBe(false);
  });
});

describe("nothingMoved", () => {
  it("is true only when every row is zero both ways (a refund-only credit still counts as movement)", () => {
    expect(nothingMoved([])).toBe(true);
    expect(
      nothingMoved([
        { in_minor: 0, out_minor: 0 },
        { in_minor: 0, out_minor: 0 },
      ]),
    ).toBe(true);
    expect(
      nothingMoved([
        { in_minor: 0, out_minor: 0 },
        { in_minor: 0, out_minor: 1 },
      ]),
    ).toBe(false);
    expect(nothingMoved([{ in_minor: -500, out_minor: 0 }])).toBe(false);
  });
});

describe("timelineDays", () => {
  const item = (id: string, date: string, overdue = false) => ({ id, date, overdue });

  it("groups commitments by day in date order, overdue ones first on today", () => {
    const days = timelineDays([
      item("a", "2026-11-22"),
      item("b", "2026-11-22", true),
      item("c", "2026-11-22", true),
      item("d", "2026-11-25"),
      item("e", "2026-11-25"),
      item("f", "2026-12-01"),
    ]);
    expect(days.map((day) => [day.date, day.overdue, day.items.map((i) => i.id).join("")])).toEqual([
      ["2026-11-22", true, "bc"],
      ["2026-11-22", false, "a"],
      ["2026-11-25", false, "de"],
      ["2026-12-01", false, "f"],
    ]);
  });

  it("answers nothing for no commitments", () => {
    expect(timelineDays([])).toEqual([]);
  });
});

describe("commitmentsCurrencies", () => {
  it("names the base currency of the items, and the display currency of the total when it differs", () => {
    expect(commitmentsCurrencies("EUR", "EUR")).toBe("Planned expenses, subscription charges and ad budgets, in EUR.");
    expect(commitmentsCurrencies("EUR", "USD")).toBe(
      "Planned expenses, subscription charges and ad budgets, in EUR; the total in USD.",
    );
  });
});

describe("commitmentKindWords", () => {
  const item = {
    id: "c1",
    name: "Ad budget cmp-a",
    date: "2026-05-10",
    direction: "out" as const,
    amount_minor: 700_000,
    currency: "USD",
    base_amount_minor: 700_000,
    overdue: false,
    share_bps: null,
  };
  it("says what a commitment is; an ad budget with its daily budget and its days", () => {
    expect(commitmentKindWords({ ...item, kind: "planned" }, "en-US")).toBe("Planned expense");
    expect(commitmentKindWords({ ...item, kind: "subscription" }, "en-US")).toBe("Subscription charge");
    const budget = { ...item, kind: "ad_budget" as const, daily_budget_minor: 25_000, from: "2026-05-10", to: "2026-06-06" };
    expect(commitmentKindWords(budget, "en-US")).toBe(`${formatMinor(25_000, "USD", "en-US")} a day, May 10 – Jun 6`);
    expect(commitmentKindWords({ ...budget, to: "2026-05-10" }, "en-US")).toContain("a day, May 10");
  });
});

describe("shareWords", () => {
  it("shows a project's share in percent with two decimals, exactly", () => {
    expect(shareWords(4000)).toBe("40.00 % share");
    expect(shareWords(3333)).toBe("33.33 % share");
    expect(shareWords(5)).toBe("0.05 % share");
    expect(shareWords(null)).toBeNull();
    expect(shareWords(undefined)).toBeNull();
  });
});
