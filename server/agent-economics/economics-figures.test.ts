// The pure half of agent economics: derived fields (executed, pending decisions, roi) and totals.
import { describe, expect, it } from "vitest";
import { emptyEconomics, moneyOf, sumEconomics, toFigures, withMoney, type TEconomics } from "./economics-figures";

function economics(overrides: (e: TEconomics) => void): TEconomics {
  const e = emptyEconomics();
  overrides(e);
  return e;
}

describe("economics figures", () => {
  it("executed = auto_approved + approved; pending decisions = count − measured − inconclusive", () => {
    const figures = toFigures(
      economics((e) => {
        e.writes.auto_approved = 3;
        e.writes.approved = 2;
        e.writes.pending = 7;
        e.decisions.count = 10;
        e.decisions.measured = 4;
        e.decisions.inconclusive = 1;
      }),
    );
    expect(figures.writes.executed).toBe(5);
    expect(figures.decisions.pending).toBe(5);
  });

  it("roi = (value − committed) / committed to 4 decimals, half even; null when nothing was committed", () => {
    const roi = (value: bigint, committed: bigint) =>
      toFigures(
        economics((e) => {
          e.decisions.valueMinor = value;
          e.committedMinor = committed;
        }),
      ).roi;
    expect(roi(560_00n, 130_00n)).toBe(3.3077);
    expect(roi(0n, 130_00n)).toBe(-1);
    expect(roi(500n, 0n)).toBeNull();
    // 1/3 − 1 = −0.66666… → −0.6667; 0.00005 exactly → 0.0000 (half even: the 4th decimal stays even).
    expect(roi(1n, 3n)).toBe(-0.6667);
    expect(roi(20_001n, 20_000n)).toBe(0);
  });

  it("totals sum every count and amount; the money round-trips through moneyOf/withMoney", () => {
    const a = economics((e) => {
      e.writes.denied = 1;
      e.committedMinor = 100n;
      e.adBudget.applied = 2;
      e.adBudget.changes = 2;
      e.attributed.outMinor = 7n;
      e.decisions.better = 1;
      e.decisions.valueMinor = -5n;
    });
    const b = economics((e) => {
      e.writes.denied = 2;
      e.committedMinor = 1n;
      e.adBudget.failed = 1;
      e.adBudget.changes = 1;
      e.adBudget.dailyIncreaseMinor = 30n;
      e.decisions.valueMinor = 10n;
    });
    const total = sumEconomics([a, b]);
    expect(total.writes.denied).toBe(3);
    expect(total.adBudget).toEqual({ changes: 3, planned: 0, applied: 2, failed: 1, dailyIncreaseMinor: 30n });
    expect(moneyOf(total)).toEqual([101n, 30n, 0n, 7n, 5n]);
    expect(moneyOf(withMoney(total, [1n, 2n, 3n, 4n, 5n]))).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(sumEconomics([])).toEqual(emptyEconomics());
  });
});
