// The simulation's calendar and how valued changes alter the forecast's inputs, without a database.
import { describe, expect, it } from "vitest";
import type { TCommitment } from "../read-models/commitments";
import type { TForecastInputs } from "../read-models/forecast";
import { additionDates, applyChanges, dailyDates } from "./simulation-changes";

describe("additionDates", () => {
  it("once: its day when inside [today, end]", () => {
    expect(additionDates({ on: "2027-06-20" }, "2027-06-15", "2027-06-30")).toEqual(["2027-06-20"]);
    expect(additionDates({ on: "2027-07-01" }, "2027-06-15", "2027-06-30")).toEqual([]);
  });

  it("monthly from the 31st: clamped to each month's end, never drifting", () => {
    expect(additionDates({ on: "2028-01-31", billingInterval: "month" }, "2028-01-01", "2028-05-31")).toEqual([
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      "2028-04-30",
      "2028-05-31",
    ]);
  });

  it("weekly, quarterly and yearly", () => {
    expect(additionDates({ on: "2027-06-15", billingInterval: "week" }, "2027-06-15", "2027-07-01")).toEqual([
      "2027-06-15",
      "2027-06-22",
      "2027-06-29",
    ]);
    expect(additionDates({ on: "2027-08-31", billingInterval: "quarter" }, "2027-06-15", "2028-06-01")).toEqual([
      "2027-08-31",
      "2027-11-30",
      "2028-02-29",
      "2028-05-31",
    ]);
    expect(additionDates({ on: "2027-06-15", billingInterval: "year" }, "2027-06-15", "2028-06-15")).toEqual([
      "2027-06-15",
      "2028-06-15",
    ]);
  });
});

it("dailyDates: every day from `from` to the end", () => {
  expect(dailyDates("2027-06-29", "2027-07-02")).toEqual(["2027-06-29", "2027-06-30", "2027-07-01", "2027-07-02"]);
  expect(dailyDates("2027-07-03", "2027-07-02")).toEqual([]);
});

describe("applyChanges", () => {
  const charge = (date: string, id = "s1"): TCommitment => ({
    kind: "subscription",
    id,
    name: "S",
    date,
    direction: "out",
    amountMinor: 100n,
    currency: "USD",
    baseAmountMinor: 92n,
    overdue: false,
    shareBps: null,
  });
  const inputs: TForecastInputs = {
    cash: null,
    reservedMinor: 1_000n,
    commitments: [charge("2027-06-15"), charge("2027-07-15"), charge("2027-07-15", "s2")],
    runRateIn: 9n,
    runRateOut: 8n,
    conversions: [],
  };

  it("no changes: the same inputs", () => {
    expect(applyChanges(inputs, [], [])).toEqual(inputs);
  });

  it("cancels and reprices only that subscription's charges from the day given; reserved and additions", () => {
    const changed = applyChanges(
      inputs,
      [
        { kind: "subscription", subscriptionId: "s1", from: "2027-07-01", charge: null },
        { kind: "subscription", subscriptionId: "s2", from: "2027-06-15", charge: { amountMinor: 200n, baseAmountMinor: 184n } },
        { kind: "reserved", deltaMinor: -300n },
        {
          kind: "commitments",
          index: 3,
          name: "add_revenue",
          direction: "in",
          dates: ["2027-06-20", "2027-07-20"],
          amountMinor: 5n,
          currency: "EUR",
          baseAmountMinor: 5n,
        },
      ],
      [],
    );
    expect(changed.reservedMinor).toBe(700n);
    expect(changed.commitments.map((c) => [c.id, c.date, c.direction, c.baseAmountMinor])).toEqual([
      ["s1", "2027-06-15", "out", 92n],
      ["s2", "2027-07-15", "out", 184n],
      ["change:3", "2027-06-20", "in", 5n],
      ["change:3", "2027-07-20", "in", 5n],
    ]);
    // The books' inputs are untouched.
    expect(inputs.commitments).toHaveLength(3);
    expect(changed.runRateIn).toBe(9n);
  });
});
