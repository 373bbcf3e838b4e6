import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countsInTotals, sumCountedBase, type TCountable } from "./counted-total";

const event = fc.record({
  status: fc.constantFrom("confirmed", "voided"),
  reconciled: fc.boolean(),
  baseAmountMinor: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
}) satisfies fc.Arbitrary<TCountable>;

describe("sumCountedBase", () => {
  it("never counts a voided or reconciled event", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const expected = events
          .filter((e) => e.status === "confirmed" && !e.reconciled)
          .reduce((sum, e) => sum + e.baseAmountMinor!, 0n);
        expect(sumCountedBase(events)).toBe(expected);
        // Adding voided events, whatever their amounts, changes nothing.
        const voided = events.map((e) => ({ ...e, status: "voided" }));
        expect(sumCountedBase([...events, ...voided])).toBe(expected);
      }),
    );
  });

  it("gives the same total in any order", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.infiniteStream(fc.nat()), (events, seeds) => {
        const shuffled = [...events];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = seeds.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(sumCountedBase(shuffled)).toBe(sumCountedBase(events));
      }),
    );
  });

  it("refuses a counted event without a base amount rather than treating it as zero", () => {
    expect(() => sumCountedBase([{ status: "confirmed", reconciled: false, baseAmountMinor: null }])).toThrow(/base amount/);
    expect(sumCountedBase([{ status: "voided", reconciled: false, baseAmountMinor: null }])).toBe(0n);
    expect(countsInTotals({ status: "confirmed", reconciled: true })).toBe(false);
  });
});
