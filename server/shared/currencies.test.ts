// The server's errors for codes outside the one currency table (lib/currencies.ts; every code's
// digits against ICU and ISO are checked in lib/money.test.ts).
import { describe, expect, it } from "vitest";
import { assertKnownCurrency, currencyDigits } from "./currencies";

describe("currencyDigits", () => {
  it.each([
    ["EUR", 2],
    ["USD", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["KWD", 3],
    ["BHD", 3],
    ["IQD", 3], // ISO 4217 says 3 where ICU says 0
    ["HUF", 2], // ISO 4217 says 2 where ICU says 0
    ["IDR", 2],
    ["CLP", 0],
  ])("%s has %i minor digits (ISO 4217)", (code, digits) => {
    expect(currencyDigits(code)).toBe(digits);
  });

  it("refuses a code that is not ISO 4217 with currency_unsupported", () => {
    expect(() => currencyDigits("XYZ")).toThrow(expect.objectContaining({ code: "currency_unsupported" }));
  });
});

describe("assertKnownCurrency", () => {
  it("accepts a code of the table and refuses any other with validation_error naming the field", () => {
    expect(() => assertKnownCurrency("EUR", "currency")).not.toThrow();
    for (const code of ["XYZ", "eur", "CLF", ""])
      expect(() => assertKnownCurrency(code, "base_currency")).toThrow(
        expect.objectContaining({ code: "validation_error", message: expect.stringContaining("base_currency") }),
      );
  });
});
