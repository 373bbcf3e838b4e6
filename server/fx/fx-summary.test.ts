import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TFxInfo } from "./fx.schema";
import { buildFxSummary } from "./fx-summary";
import { divideHalfEven } from "./money";

const fx = (over: Partial<TFxInfo>): TFxInfo => ({
  rate: "1.00000000",
  as_of: "2026-11-20",
  source: "ecb",
  kind: "current",
  stale: false,
  ...over,
});

describe("buildFxSummary", () => {
  it("takes as_of from the oldest current rate, stale from current rates, the share from absolute amounts", () => {
    const { fx: summary, fx_used } = buildFxSummary({
      baseCurrency: "EUR",
      today: "2026-11-22",
      conversions: [
        { from: "EUR", fx: fx({ source: "identity", as_of: "2026-11-22" }), amountMinor: 5_000n },
        { from: "USD", fx: fx({ rate: "0.86303616", as_of: "2026-11-20" }), amountMinor: -3_000n },
        { from: "GBP", fx: fx({ rate: "1.13451550", as_of: "2026-11-13", stale: true }), amountMinor: 1_000n },
        // Snapshots are frozen facts: old and stale, yet neither as_of nor stale nor the estimate.
        { from: "USD", fx: fx({ rate: "0.90000000", as_of: "2019-01-02", kind: "snapshot", stale: true }), amountMinor: 1_000n },
      ],
    });
    expect(summary).toEqual({
      base_currency: "EUR",
      display_currency: "EUR",
      as_of: "2026-11-13",
      source: "ecb",
      stale: true,
      currencies: ["EUR", "GBP", "USD"],
      estimated_share: 0.4, // (3000 + 1000) / 10000
    });
    expect(fx_used).toEqual([
      { from: "GBP", to: "EUR", rate: "1.13451550", as_of: "2026-11-13", source: "ecb", stale: true },
      { from: "USD", to: "EUR", rate: "0.90000000", as_of: "2019-01-02", source: "ecb", stale: true },
      { from: "USD", to: "EUR", rate: "0.86303616", as_of: "2026-11-20", source: "ecb", stale: false },
    ]);
  });

  it("with nothing converted: today, identity, share 0", () => {
    const { fx: summary, fx_used } = buildFxSummary({ baseCurrency: "USD", conversions: [], today: "2026-11-22" });
    expect(summary).toMatchObject({ as_of: "2026-11-22", source: "identity", stale: false, currencies: [], estimated_share: 0 });
    expect(fx_used).toEqual([]);
  });

  it("a result shown in another currency at a current rate is wholly estimated", () => {
    const { fx: summary, fx_used } = buildFxSummary({
      baseCurrency: "EUR",
      displayCurrency: "USD",
      today: "2026-11-22",
      conversions: [{ from: "EUR", fx: fx({ source: "identity", kind: "snapshot" }), amountMinor: 100n }],
      displayFx: fx({ rate: "1.08420000", source: "mock", as_of: "2026-11-22" }),
    });
    expect(summary).toMatchObject({ display_currency: "USD", as_of: "2026-11-22", source: "mock", estimated_share: 1 });
    expect(fx_used).toEqual([{ from: "EUR", to: "USD", rate: "1.08420000", as_of: "2026-11-22", source: "mock", stale: false }]);
  });

  it("rounds the share to 4 places", () => {
    const { fx: summary } = buildFxSummary({
      baseCurrency: "EUR",
      conversions: [
        { from: "USD", fx: fx({}), amountMinor: 1n },
        { from: "EUR", fx: fx({ source: "identity" }), amountMinor: 2n },
      ],
    });
    expect(summary.estimated_share).toBe(0.3333);
  });
});

describe("estimated_share (pinned-wave3 §1.4)", () => {
  const conversion = fc.record({
    from: fc.constantFrom("EUR", "USD", "GBP"),
    kind: fc.constantFrom("current" as const, "snapshot" as const),
    identity: fc.boolean(),
    amountMinor: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
  });

  it("is |amounts at a current rate| / |all amounts| in the base, 0 when there are none, 1 in another display currency", () => {
    fc.assert(
      fc.property(fc.array(conversion, { maxLength: 20 }), fc.boolean(), (items, otherDisplay) => {
        const conversions = items.map((c) => ({
          from: c.from,
          fx: fx({ kind: c.kind, source: c.identity ? "identity" : "ecb" }),
          amountMinor: c.amountMinor,
        }));
        const { fx: summary } = buildFxSummary({
          baseCurrency: "EUR",
          today: "2026-11-22",
          conversions,
          ...(otherDisplay ? { displayCurrency: "USD", displayFx: fx({ rate: "1.08420000" }) } : {}),
        });
        const abs = (v: bigint) => (v < 0n ? -v : v);
        const all = items.reduce((sum, c) => sum + abs(c.amountMinor), 0n);
        const estimated = items
          .filter((c) => c.kind === "current" && !c.identity)
          .reduce((sum, c) => sum + abs(c.amountMinor), 0n);
        const expected = otherDisplay ? 1 : all === 0n ? 0 : Number(divideHalfEven(estimated * 10_000n, all)) / 10_000;
        expect(summary.estimated_share).toBe(expected);
      }),
    );
  });
});
