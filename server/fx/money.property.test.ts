// Properties of the money arithmetic (fast-check): conversion is exact up to the ONE
// documented rounding (half to even to the target's minor unit), deterministic, and a list
// converts to the same base total in any order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TDbOrTx } from "../db/client";
import { convertMany } from "./fx-service";
import { convertMinor, crossRate, parseDecimal } from "./money";
import { MOCK_EUR_RATES, mockProvider } from "./providers/mock";

const amount = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const digits = fc.integer({ min: 0, max: 3 });
/** A positive rate with 8 places, from 0.00000001 to 100000. */
const rate = fc.bigInt({ min: 1n, max: 10n ** 13n }).map((units) => {
  const text = units.toString().padStart(9, "0");
  return `${text.slice(0, -8)}.${text.slice(-8)}`;
});

/** The exact result as a fraction num/den (den > 0). */
function exact(a: bigint, fromDigits: number, toDigits: number, r: string) {
  const { units, scale } = parseDecimal(r);
  return { num: a * units * 10n ** BigInt(toDigits + 8), den: 10n ** BigInt(scale + fromDigits + 8) };
}
const abs = (v: bigint) => (v < 0n ? -v : v);

describe("convertMinor", () => {
  it("is within half a target minor unit of the exact value, ties going to the even neighbour", () => {
    fc.assert(
      fc.property(amount, digits, digits, rate, (a, df, dt, r) => {
        const converted = convertMinor(a, df, dt, r);
        const { num, den } = exact(a, df, dt, r);
        const twiceError = abs(converted * den - num) * 2n;
        expect(twiceError <= den).toBe(true);
        if (twiceError === den) expect(converted % 2n).toBe(0n);
      }),
      { numRuns: 2000 },
    );
  });

  it("is deterministic, odd-symmetric and monotonic", () => {
    fc.assert(
      fc.property(amount, amount, digits, digits, rate, (a, b, df, dt, r) => {
        expect(convertMinor(a, df, dt, r)).toBe(convertMinor(a, df, dt, r));
        expect(convertMinor(-a, df, dt, r)).toBe(-convertMinor(a, df, dt, r));
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(convertMinor(lo, df, dt, r) <= convertMinor(hi, df, dt, r)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("convert(a + b) and convert(a) + convert(b) differ by at most 1 minor unit", () => {
    fc.assert(
      fc.property(amount, amount, digits, digits, rate, (a, b, df, dt, r) => {
        const whole = convertMinor(a + b, df, dt, r);
        const parts = convertMinor(a, df, dt, r) + convertMinor(b, df, dt, r);
        expect(abs(whole - parts) <= 1n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("never invents money: a zero stays zero, and the same currency at rate 1 is the identity", () => {
    fc.assert(
      fc.property(amount, digits, rate, (a, d, r) => {
        expect(convertMinor(0n, d, d, r)).toBe(0n);
        expect(convertMinor(a, d, d, "1.00000000")).toBe(a);
      }),
    );
  });
});

describe("crossRate", () => {
  it("is within half of the 8th place of the exact quotient", () => {
    fc.assert(
      fc.property(rate, rate, (from, to) => {
        const result = parseDecimal(crossRate(from, to));
        const f = parseDecimal(from);
        const t = parseDecimal(to);
        // |result − t/f| ≤ 0.5e-8  ⇔  |result.units × f.units − t.units × 10^8| × 2 ≤ f.units (scales are 8)
        const twiceError = abs(result.units * f.units - t.units * 10n ** 8n) * 2n;
        expect(twiceError <= f.units).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("convertMany on the mock table", () => {
  const currencies = ["EUR", ...Object.keys(MOCK_EUR_RATES)];
  // Within the exact range after conversion: no pair of the mock table multiplies by 64 or more
  // (beyond it a conversion is refused: money.test.ts).
  const fitting = fc.bigInt({ min: -(2n ** 47n), max: 2n ** 47n });
  const item = fc.record({ amountMinor: fitting, from: fc.constantFrom(...currencies) });
  // The mock source is resolved from its table: no database is touched.
  const noDb = {} as TDbOrTx;
  const options = { provider: mockProvider, today: "2026-11-22" };
  const toBase = (items: Array<{ amountMinor: bigint; from: string }>, base: string) =>
    convertMany(
      noDb,
      items.map((i) => ({ ...i, to: base, on: "2026-11-20", kind: "snapshot" as const })),
      options,
    );

  it("sums a list in several currencies to the same base total in any order, each item independent of the others", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...currencies),
        fc.integer(),
        async (items, base, seed) => {
          const converted = await toBase(items, base);
          const shuffled = items
            .map((it, i) => ({ it, i, key: (i * 2654435761 + seed) % 1000003 }))
            .sort((a, b) => a.key - b.key);
          const again = await toBase(
            shuffled.map((s) => s.it),
            base,
          );
          const total = converted.reduce((sum, c) => sum + c.amountMinor, 0n);
          const totalAgain = again.reduce((sum, c) => sum + c.amountMinor, 0n);
          expect(totalAgain).toBe(total);
          shuffled.forEach((s, j) => expect(again[j]!.amountMinor).toBe(converted[s.i]!.amountMinor));
          const reversed = [...converted].reverse().reduce((sum, c) => sum + c.amountMinor, 0n);
          expect(reversed).toBe(total);
        },
      ),
      { numRuns: 200 },
    );
  });
});
