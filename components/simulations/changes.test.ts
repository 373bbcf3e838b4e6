import { describe, expect, it } from "vitest";
import { changesFromDrafts, newDraft, simulationFieldOf } from "./changes";

const today = "2027-06-15";

describe("changesFromDrafts", () => {
  it("turns each kind of draft into the API's change", () => {
    const cancel = { ...newDraft("cancel_subscription", { currency: "EUR", today }), subscriptionId: "s1" };
    const lower = {
      ...newDraft("ad_budget_change", { currency: "EUR", today }),
      integrationId: "i1",
      direction: "lower" as const,
      amount: "20.50",
    };
    const cost = { ...newDraft("add_expense", { currency: "USD", today }), amount: "1.00", day: "2027-06-30" };
    const once = { ...newDraft("add_revenue", { currency: "JPY", today }), amount: "500" };
    expect(changesFromDrafts([cancel, lower, cost, once])).toEqual({
      changes: [
        { kind: "cancel_subscription", subscription_id: "s1", from: today },
        { kind: "ad_budget_change", integration_id: "i1", delta_daily_minor: -2_050, currency: "EUR", from: today },
        { kind: "add_expense", amount_minor: 100, currency: "USD", on: "2027-06-30", billing_interval: "month" },
        { kind: "add_revenue", amount_minor: 500, currency: "JPY", on: today },
      ],
      errors: {},
    });
  });

  it("names every problem of every row at once, by the API's path", () => {
    const cancel = newDraft("cancel_subscription", { currency: "EUR", today });
    const budget = { ...newDraft("ad_budget_change", { currency: "EUR", today }), amount: "0" };
    const cost = { ...newDraft("add_expense", { currency: "EUR", today }), amount: "1.234", day: "" };
    const { errors } = changesFromDrafts([cancel, budget, cost]);
    expect(Object.keys(errors).sort()).toEqual([
      "changes.0.subscription_id",
      "changes.1.delta_daily_minor",
      "changes.1.integration_id",
      "changes.2.amount_minor",
      "changes.2.on",
    ]);
  });
});

it("simulationFieldOf: a change's field or row, the horizon, else the summary", () => {
  expect(simulationFieldOf({ path: "changes.3.amount_minor", message: "x" })).toEqual({ field: "changes.3.amount_minor" });
  expect(simulationFieldOf({ path: "changes.1", message: "x" })).toEqual({ field: "changes.1" });
  expect(simulationFieldOf({ path: "horizon", message: "x" })).toEqual({ field: "horizon" });
  expect(simulationFieldOf({ path: "business_id", message: "x" })).toBeNull();
});
