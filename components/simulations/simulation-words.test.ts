import { describe, expect, it } from "vitest";
import { comparisonRows, signedMinor, type TSimTotals } from "./simulation-words";

const totals = (patch: Partial<TSimTotals> = {}): TSimTotals => ({
  committed_in_minor: 0,
  committed_out_minor: 29_459,
  reserved_minor: 8_500,
  run_rate_in_minor: 0,
  run_rate_out_minor: 0,
  ending_balance_committed_minor: 101_264,
  lowest_balance_minor: 72_448,
  lowest_balance_on: "2027-06-30",
  first_negative_on: null,
  free_capital_minor: 71_264,
  ...patch,
});

it("signedMinor: the sign always shown, zero in words, unknown as a dash", () => {
  expect(signedMinor(999, "EUR", "en-US")).toBe("+€9.99");
  expect(signedMinor(-500, "EUR", "en-US")).toBe("−€5.00");
  expect(signedMinor(0, "EUR", "en-US")).toBe("No change");
  expect(signedMinor(null, "EUR", "en-US")).toBe("—");
});

describe("comparisonRows", () => {
  it("before, after and the difference of each figure", () => {
    const rows = comparisonRows(
      totals(),
      totals({
        ending_balance_committed_minor: 102_263,
        lowest_balance_minor: 73_447,
        lowest_balance_on: "2027-06-29",
        first_negative_on: "2027-07-01",
      }),
      "EUR",
      "en-US",
    );
    expect(rows.find((r) => r.id === "ending")).toMatchObject({
      baseline: "€1,012.64",
      simulated: "€1,022.63",
      difference: "+€9.99",
    });
    expect(rows.find((r) => r.id === "lowest")).toMatchObject({ simulated: "€734.47 on Jun 29, 2027", difference: "+€9.99" });
    expect(rows.find((r) => r.id === "first-negative")).toMatchObject({
      baseline: "None",
      simulated: "Jul 1, 2027",
      difference: "New",
    });
    expect(rows.find((r) => r.id === "reserved")?.difference).toBe("No change");
  });

  it("without cash the balances are dashes", () => {
    const none = totals({
      ending_balance_committed_minor: null,
      lowest_balance_minor: null,
      lowest_balance_on: null,
      free_capital_minor: null,
    });
    const rows = comparisonRows(none, none, "EUR", "en-US");
    expect(rows.find((r) => r.id === "ending")).toMatchObject({ baseline: "—", difference: "—" });
    expect(rows.find((r) => r.id === "lowest")?.simulated).toBe("—");
  });
});
