import { describe, expect, it } from "vitest";
import { distributeByBps } from "./allocation-math";

describe("distributeByBps", () => {
  it("splits exactly when the shares divide the amount", () => {
    expect(distributeByBps(10_000n, [5000, 3000, 2000])).toEqual([5000n, 3000n, 2000n]);
  });

  it("gives the leftover minor units to the largest remainders, so the parts sum to the whole", () => {
    // 100 × 1/3 each: 33.33 → 33, 33, 33 and one unit left, which goes to the first (equal remainders).
    expect(distributeByBps(100n, [3334, 3333, 3333])).toEqual([34n, 33n, 33n]);
    // 999 × (0.5, 0.25, 0.25) = 499.5, 249.75, 249.75 → 499, 250, 250.
    expect(distributeByBps(999n, [5000, 2500, 2500])).toEqual([499n, 250n, 250n]);
    expect(distributeByBps(1n, [5000, 5000])).toEqual([1n, 0n]);
  });

  it("keeps every part within one minor unit of its exact share and sums exactly, for many cases", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let round = 0; round < 500; round++) {
      const count = 1 + random(8);
      const shares: number[] = [];
      let left = 10_000;
      for (let i = 0; i < count - 1 && left > count - i; i++) {
        const share = 1 + random(left - (count - i - 1));
        shares.push(share);
        left -= share;
      }
      shares.push(left);
      const total = BigInt(random(10_000_000));
      const parts = distributeByBps(total, shares);
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
      parts.forEach((part, i) => {
        const exactTimes10000 = total * BigInt(shares[i]!);
        const diff = part * 10_000n - exactTimes10000;
        expect(diff > -10_000n && diff < 10_000n).toBe(true);
      });
    }
  });

  it("splits negative amounts symmetrically and an empty list to nothing", () => {
    expect(distributeByBps(-100n, [3334, 3333, 3333])).toEqual([-34n, -33n, -33n]);
    expect(distributeByBps(0n, [10_000])).toEqual([0n]);
    expect(distributeByBps(123n, [])).toEqual([]);
  });

  it("refuses shares that do not sum to 10000", () => {
    expect(() => distributeByBps(100n, [5000, 4000])).toThrow();
  });
});
