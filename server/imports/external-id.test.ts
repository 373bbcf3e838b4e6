import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createExternalIdAssigner, importExternalId, importKey, type TKeyedRow } from "./external-id";

const coffee: TKeyedRow = {
  occurred_on: "2024-03-01",
  amount_minor: -350,
  currency: "EUR",
  description: "Coffee",
  counterparty: "Roastery",
};

function assignAll(rows: readonly TKeyedRow[]): string[] {
  const assigner = createExternalIdAssigner();
  return rows.map((row) => assigner.next(row).external_id);
}

describe("importExternalId", () => {
  it("is imp_ and 32 hex digits, fixed for a given row and occurrence", () => {
    const id = importExternalId(coffee, 1);
    expect(id).toMatch(/^imp_[0-9a-f]{32}$/);
    expect(importExternalId({ ...coffee }, 1)).toBe(id);
    expect(importExternalId(coffee, 2)).not.toBe(id);
  });

  it("ignores spacing and case in texts, and spacing in the account", () => {
    const spaced = { ...coffee, description: "  COFFEE ", counterparty: "roastery", counterparty_account: "de89 3704" };
    expect(importExternalId(spaced, 1)).toBe(importExternalId({ ...coffee, counterparty_account: "DE893704" }, 1));
  });

  it.each([
    ["occurred_on", { occurred_on: "2024-03-02" }],
    ["amount_minor", { amount_minor: -351 }],
    ["currency", { currency: "USD" }],
    ["description", { description: "Tea" }],
    ["counterparty", { counterparty: "Bakery" }],
    ["counterparty_account", { counterparty_account: "DE00" }],
    ["reference", { reference: "R1" }],
  ])("changes with %s", (_field, change) => {
    expect(importExternalId({ ...coffee, ...change }, 1)).not.toBe(importExternalId(coffee, 1));
  });

  it("keys identical rows alike", () => {
    expect(importKey({ ...coffee, description: "coffee" })).toBe(importKey(coffee));
  });

  it("refuses an occurrence below 1", () => {
    expect(() => importExternalId(coffee, 0)).toThrow(RangeError);
  });
});

describe("createExternalIdAssigner", () => {
  it("gives two identical same-day charges distinct ids, and a re-import the same ids", () => {
    const statement = [coffee, { ...coffee, description: "Cake" }, { ...coffee }];
    const first = assignAll(statement);
    expect(first[0]).not.toBe(first[2]);
    expect(first[2]).toBe(importExternalId(coffee, 2));
    expect(assignAll(statement)).toEqual(first);
  });

  it("counts occurrences per key", () => {
    const assigner = createExternalIdAssigner();
    expect([coffee, coffee, { ...coffee, amount_minor: -1 }, coffee].map((row) => assigner.next(row).occurrence)).toEqual([
      1, 2, 1, 3,
    ]);
  });

  // Few distinct values so identical rows are frequent.
  const row = fc.record({
    occurred_on: fc.constantFrom("2024-03-01", "2024-03-02"),
    amount_minor: fc.constantFrom(-350, -1000, 2500),
    currency: fc.constantFrom("EUR", "USD"),
    description: fc.constantFrom("Coffee", "coffee ", "Rent"),
    counterparty: fc.constantFrom("", "Roastery"),
  }) satisfies fc.Arbitrary<TKeyedRow>;

  it("ids are unique within a statement and stable under re-import, in any order of identical rows", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), fc.infiniteStream(fc.nat()), (rows, seeds) => {
        const ids = assignAll(rows);
        expect(new Set(ids).size).toBe(rows.length);
        expect(assignAll(rows)).toEqual(ids);
        // Another export order: the same set of ids (identical rows are interchangeable).
        const shuffled = [...rows];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = seeds.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(new Set(assignAll(shuffled))).toEqual(new Set(ids));
        // A longer statement that starts with this one keeps its ids.
        const cut = seeds.next().value % (rows.length + 1);
        expect(assignAll(rows.slice(0, cut))).toEqual(ids.slice(0, cut));
      }),
    );
  });
});
