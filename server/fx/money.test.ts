import { describe, expect, it } from "vitest";
import {
  AmountRangeError,
  convertBetween,
  convertMinor,
  crossRate,
  divideHalfEven,
  exactMinorOrNull,
  formatRate,
  isExactMinor,
  parseDecimal,
} from "./money";

describe("divideHalfEven", () => {
  it.each([
    [5n, 2n, 2n],
    [7n, 2n, 4n],
    [-5n, 2n, -2n],
    [-7n, 2n, -4n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-2n, 3n, -1n],
    [10n, -4n, -2n],
    [0n, 7n, 0n],
  ])("%s / %s = %s", (n, d, q) => expect(divideHalfEven(n, d)).toBe(q));
});

describe("formatRate and parseDecimal", () => {
  it("writes exactly 8 places, rounding half to even only beyond them", () => {
    expect(formatRate("1.0842")).toBe("1.08420000");
    expect(formatRate("162")).toBe("162.00000000");
    expect(formatRate("0.000000005")).toBe("0.00000000");
    expect(formatRate("0.000000015")).toBe("0.00000002");
    expect(formatRate("1e-8")).toBe("0.00000001");
    expect(formatRate({ toFixed: (places: number) => (1.5).toFixed(places) })).toBe("1.50000000");
  });

  it("parses exactly, and refuses what is not a number", () => {
    expect(parseDecimal("1.5e3")).toEqual({ units: 1500n, scale: 0 });
    expect(parseDecimal("-0.25")).toEqual({ units: -25n, scale: 2 });
    expect(() => parseDecimal("1,5")).toThrow();
    expect(() => parseDecimal("NaN")).toThrow();
  });
});

describe("crossRate", () => {
  it("divides two EUR rates exactly and rounds once to 8 places, half to even", () => {
    // 0.8531 / 1.0842 = 0.786847445120826…
    expect(crossRate("1.08420000", "0.85310000")).toBe("0.78684745");
    // EUR itself is rate 1: its inverse and its direct rate.
    expect(crossRate("1", "1.0842")).toBe("1.08420000");
    expect(crossRate("1.0842", "1")).toBe("0.92233905"); // 1 / 1.0842 = 0.9223390518…;
    // A tie at the 9th place goes to the even neighbour: 1 / 8 = 0.125 → scaled 0.12500000 (exact)
    expect(crossRate("8", "1")).toBe("0.12500000");
    // 0.000000025 exactly → 0.00000002 (even), 0.000000035 → 0.00000004
    expect(crossRate("40000000", "1")).toBe("0.00000002");
    expect(crossRate("200", "0.000007")).toBe("0.00000004");
  });

  it("refuses zero and negative rates", () => {
    expect(() => crossRate("0", "1")).toThrow();
    expect(() => crossRate("1", "-1")).toThrow();
  });
});

describe("convertMinor", () => {
  it("converts between minor units of different sizes and rounds half to even", () => {
    expect(convertMinor(10_000n, 2, 2, "1.08420000")).toBe(10_842n); // 100.00 EUR → 108.42 USD
    expect(convertMinor(10_000n, 2, 0, "162.45000000")).toBe(16_245n); // 100.00 EUR → 16245 JPY
    expect(convertMinor(16_245n, 0, 2, "0.00615574")).toBe(10_000n); // 16245 JPY → 100.00 EUR
    expect(convertMinor(1_000n, 2, 3, "0.33000000")).toBe(3_300n); // to a 3-digit currency
    expect(convertMinor(5n, 2, 2, "0.50000000")).toBe(2n); // 2.5 → 2
    expect(convertMinor(15n, 2, 2, "0.50000000")).toBe(8n); // 7.5 → 8
    expect(convertMinor(-5n, 2, 2, "0.50000000")).toBe(-2n); // symmetric for refunds
    expect(convertMinor(0n, 2, 0, "162.45000000")).toBe(0n);
  });

  it("keeps amounts far beyond 2^53 exact", () => {
    const huge = 123_456_789_012_345_678_901n;
    expect(convertMinor(huge, 2, 2, "1.00000000")).toBe(huge);
    expect(convertMinor(huge, 2, 2, "2.00000000")).toBe(huge * 2n);
  });

  it("uses ISO digits through convertBetween", () => {
    expect(convertBetween(100n, "KWD", "JPY", "500.00000000")).toBe(50n); // 0.100 KWD → 50 JPY
  });

  it("refuses a conversion beyond ±(2^53 − 1) (validation_error on amount_minor) and keeps the edge itself", () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    expect(convertBetween(max, "USD", "USD", "1.00000000")).toBe(max);
    expect(convertBetween(-max, "EUR", "EUR", "1.00000000")).toBe(-max);
    // 1 yen = 0.667 US cents: 2^53 − 1 yen fit in USD.
    expect(convertBetween(max, "JPY", "USD", "0.00667000")).toBe(divideHalfEven(max * 667n, 1_000n));
    for (const amount of [max, -max]) {
      let error: unknown;
      try {
        convertBetween(amount, "EUR", "USD", "1.08420000");
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AmountRangeError);
      expect(error).toMatchObject({ code: "validation_error", details: { issues: [{ path: "amount_minor" }] } });
    }
    // Beyond the range even before converting (identity): refused too.
    expect(() => convertBetween(max + 1n, "USD", "USD", "1.00000000")).toThrow(AmountRangeError);
  });

  it("answers exactMinorOrNull: the number within ±(2^53 − 1), null beyond (never rounded)", () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    expect(exactMinorOrNull(max)).toBe(Number.MAX_SAFE_INTEGER);
    expect(exactMinorOrNull(-max)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(exactMinorOrNull(max + 1n)).toBeNull();
    expect(exactMinorOrNull(-max - 1n)).toBeNull();
    expect(exactMinorOrNull(null)).toBeNull();
    expect(isExactMinor(max)).toBe(true);
    expect(isExactMinor(max + 1n)).toBe(false);
  });
});
