import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectRecurring, nameKey, type TRecurringInput } from "./recurring-detector";

function charge(occurred_on: string, amount_minor: number, counterparty: string, description = counterparty, currency = "EUR") {
  return { occurred_on, amount_minor, currency, counterparty, description } satisfies TRecurringInput;
}

const monthly = (day: string, months: number, amount: number, counterparty: string, year = 2024) =>
  Array.from({ length: months }, (_, i) => charge(`${year}-${String(i + 1).padStart(2, "0")}-${day}`, amount, counterparty));

describe("nameKey", () => {
  it("folds case and accents and drops digit tokens and punctuation", () => {
    expect(nameKey("NETFLIX.COM 866-579-7172")).toBe("netflix com");
    expect(nameKey("Café Müller  12.03.")).toBe("cafe muller");
    expect(nameKey("CARD 4411 SPOTIFY P0A1B2")).toBe("card spotify");
    expect(nameKey("12345")).toBe("");
  });
});

describe("detectRecurring", () => {
  it("finds a monthly series: 3 perfect charges score 0.8+", () => {
    const proposals = detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2024-03-20" });
    expect(proposals).toEqual([
      {
        name: "Netflix",
        counterparty: "Netflix",
        amount_minor: 1299,
        currency: "EUR",
        billing_interval: "month",
        next_charge_on: "2024-04-15",
        occurrences: 3,
        confidence: 0.83,
      },
    ]);
  });

  it("more regular charges give more confidence, noisy ones less", () => {
    const twelve = detectRecurring(monthly("01", 12, -999, "Gym"), { today: "2024-12-10" });
    expect(twelve[0]!.confidence).toBeGreaterThan(0.9);
    const noisy = detectRecurring(
      [
        charge("2024-01-01", -1000, "Power"),
        charge("2024-02-03", -1090, "Power"),
        charge("2024-02-29", -950, "Power"),
        charge("2024-04-02", -1040, "Power"),
      ],
      { today: "2024-04-10" },
    );
    expect(noisy).toHaveLength(1);
    expect(noisy[0]!.confidence).toBeLessThan(0.8);
    expect(noisy[0]!.confidence).toBeGreaterThan(0.3);
  });

  it("finds a weekly series", () => {
    const rows = ["2024-03-04", "2024-03-11", "2024-03-18", "2024-03-25"].map((d) => charge(d, -2000, "Cleaner"));
    expect(detectRecurring(rows, { today: "2024-03-26" })).toMatchObject([
      { billing_interval: "week", next_charge_on: "2024-04-01", occurrences: 4, amount_minor: 2000 },
    ]);
  });

  it("finds a yearly series, clamping 29 February", () => {
    const rows = ["2021-02-28", "2022-02-28", "2023-02-28", "2024-02-29"].map((d) => charge(d, -9900, "Domain registrar"));
    expect(detectRecurring(rows, { today: "2024-06-01" })).toMatchObject([
      { billing_interval: "year", next_charge_on: "2025-02-28", occurrences: 4 },
    ]);
  });

  it("finds a quarterly series", () => {
    const rows = ["2023-01-10", "2023-04-10", "2023-07-10", "2023-10-10"].map((d) => charge(d, -30000, "Tax advisor"));
    expect(detectRecurring(rows, { today: "2023-11-01" })).toMatchObject([
      { billing_interval: "quarter", next_charge_on: "2024-01-10" },
    ]);
  });

  it("month arithmetic clamps to the month's end and keeps the 31st", () => {
    const rows = ["2024-01-31", "2024-02-29", "2024-03-31"].map((d) => charge(d, -500, "Storage"));
    const [proposal] = detectRecurring(rows, { today: "2024-04-01" });
    expect(proposal).toMatchObject({ next_charge_on: "2024-04-30", confidence: 0.83 });
  });

  it("ignores two occurrences", () => {
    expect(detectRecurring(monthly("15", 2, -1299, "Netflix"), { today: "2024-02-20" })).toEqual([]);
  });

  it("ignores irregular amounts and irregular dates", () => {
    const amounts = [
      charge("2024-01-05", -1200, "Shop"),
      charge("2024-02-05", -4500, "Shop"),
      charge("2024-03-05", -8000, "Shop"),
    ];
    expect(detectRecurring(amounts, { today: "2024-03-10" })).toEqual([]);
    const dates = ["2024-01-02", "2024-01-20", "2024-03-15", "2024-03-19"].map((d) => charge(d, -1000, "Cafe"));
    expect(detectRecurring(dates, { today: "2024-03-20" })).toEqual([]);
  });

  it("ignores incoming money", () => {
    expect(detectRecurring(monthly("01", 6, 500000, "Employer"), { today: "2024-06-02" })).toEqual([]);
  });

  it("groups by counterparty across noise, else by description without digits", () => {
    const rows = [
      charge("2024-01-03", -1549, "NETFLIX.COM 866-579-7172"),
      charge("2024-02-03", -1549, "Netflix.com 866-579-7172"),
      charge("2024-03-03", -1549, "NETFLIX.COM 866-579-7172"),
      charge("2024-01-09", -800, "", "SEPA DD Insurance 2024-01 Policy 778"),
      charge("2024-02-09", -800, "", "SEPA DD Insurance 2024-02 Policy 778"),
      charge("2024-03-09", -800, "", "SEPA DD Insurance 2024-03 Policy 778"),
    ];
    const proposals = detectRecurring(rows, { today: "2024-03-10" });
    expect(proposals.map((p) => [p.name, p.counterparty, p.amount_minor])).toEqual([
      ["NETFLIX.COM 866-579-7172", "NETFLIX.COM 866-579-7172", 1549],
      ["SEPA DD Insurance Policy", "", 800],
    ]);
  });

  it("keeps currencies apart", () => {
    const rows = [
      charge("2024-01-03", -1000, "Cloud", "Cloud", "EUR"),
      charge("2024-02-03", -1000, "Cloud", "Cloud", "USD"),
      charge("2024-03-03", -1000, "Cloud", "Cloud", "EUR"),
    ];
    expect(detectRecurring(rows, { today: "2024-03-10" })).toEqual([]);
  });

  it("separates two plans of one merchant by amount, and names them apart", () => {
    const rows = [...monthly("05", 4, -999, "Cloud"), ...monthly("20", 4, -4999, "Cloud")];
    const proposals = detectRecurring(rows, { today: "2024-04-25" });
    expect(proposals.map((p) => [p.name, p.amount_minor])).toEqual([
      ["Cloud (49.99 EUR)", 4999],
      ["Cloud (9.99 EUR)", 999],
    ]);
  });

  it("uses the new price after a price change within tolerance", () => {
    const rows = [...monthly("10", 4, -999, "Music"), charge("2024-05-10", -1099, "Music"), charge("2024-06-10", -1099, "Music")];
    expect(detectRecurring(rows, { today: "2024-06-11" })).toMatchObject([{ amount_minor: 1099, occurrences: 6 }]);
  });

  it("fades a series that stopped long before today", () => {
    const recent = detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2024-04-16" });
    const missedOne = detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2024-05-01" });
    const gone = detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2025-01-01" });
    expect(recent[0]!.confidence).toBe(0.83);
    expect(missedOne[0]!.confidence).toBe(0.42);
    expect(gone).toEqual([]);
  });

  it("six months running is high, three is less, two are no series", () => {
    const six = detectRecurring(monthly("10", 6, -2900, "Hosting"), { today: "2024-06-12" });
    const three = detectRecurring(monthly("10", 3, -2900, "Hosting"), { today: "2024-03-12" });
    expect(six[0]!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(three[0]!.confidence).toBeLessThan(six[0]!.confidence);
    expect(detectRecurring(monthly("10", 2, -2900, "Hosting"), { today: "2024-02-12" })).toEqual([]);
  });

  it("projects the next charge forward from the last one, never before today", () => {
    // Last charge 15 March; the statement is read on 20 April: 15 April is past, so 15 May.
    const [late] = detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2024-04-20" });
    expect(late!.next_charge_on).toBe("2024-05-15");
    // Read on the due day itself: that day.
    expect(detectRecurring(monthly("15", 3, -1299, "Netflix"), { today: "2024-04-15" })[0]!.next_charge_on).toBe("2024-04-15");
    // Any today: never in the past, and on the series' day of the month.
    for (const today of ["2024-03-16", "2024-04-01", "2024-04-16", "2024-04-30"]) {
      for (const proposal of detectRecurring(monthly("15", 3, -1299, "Netflix"), { today })) {
        expect(proposal.next_charge_on >= today).toBe(true);
        expect(proposal.next_charge_on.endsWith("-15")).toBe(true);
      }
    }
  });

  it("sorts by confidence, highest first", () => {
    const alpha = ["2024-04-01", "2024-05-01", "2024-06-01"].map((d) => charge(d, -500, "Alpha"));
    const proposals = detectRecurring([...alpha, ...monthly("02", 6, -700, "Beta")], { today: "2024-06-05" });
    expect(proposals.map((p) => [p.name, p.confidence])).toEqual([
      ["Beta", 0.92],
      ["Alpha", 0.83],
    ]);
  });

  it("is deterministic whatever the input order", () => {
    const rows = [
      ...monthly("15", 5, -1299, "Netflix"),
      ...monthly("03", 4, -999, "Cloud"),
      ...["2024-03-04", "2024-03-11", "2024-03-18"].map((d) => charge(d, -2000, "Cleaner")),
      charge("2024-02-11", -4200, "Shop"),
    ];
    const expected = detectRecurring(rows, { today: "2024-05-20" });
    expect(expected.length).toBeGreaterThan(1);
    fc.assert(
      fc.property(fc.shuffledSubarray(rows, { minLength: rows.length }), (shuffled) => {
        expect(detectRecurring(shuffled, { today: "2024-05-20" })).toEqual(expected);
      }),
    );
  });
  it("proposes only series the statement shows: history completes a series, never makes one alone", () => {
    const history = [...monthly("15", 5, -1299, "Netflix"), ...monthly("03", 6, -2900, "Hosting")];
    const rows = [charge("2024-06-15", -1299, "Netflix"), charge("2024-06-20", -350, "Coffee")];
    const proposals = detectRecurring(rows, { today: "2024-06-20", history });
    expect(proposals.map((p) => [p.name, p.occurrences])).toEqual([["Netflix", 6]]);
    expect(detectRecurring([charge("2024-06-20", -350, "Coffee")], { today: "2024-06-20", history })).toEqual([]);
  });
});
