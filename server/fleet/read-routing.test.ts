import { describe, expect, it } from "vitest";
import { lagOf, lsnToBigInt } from "./read-routing";

describe("read routing's WAL arithmetic", () => {
  it("reads an LSN as its 64-bit position", () => {
    expect(lsnToBigInt("0/0")).toBe(0n);
    expect(lsnToBigInt("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnToBigInt("1/0") > lsnToBigInt("0/FFFFFFFF")).toBe(true);
    expect(lsnToBigInt(null)).toBe(0n);
  });

  it("measures lag as how long ago the primary was where the replica is", () => {
    const samples = [
      { at: 1000, lsn: 100n },
      { at: 1200, lsn: 200n },
      { at: 1400, lsn: 300n },
    ];
    expect(lagOf(samples, 300n, 1500)).toBe(0); // caught up
    expect(lagOf(samples, 350n, 1500)).toBe(0); // past the last sample
    expect(lagOf(samples, 200n, 1500)).toBe(100); // the primary moved past 200 by the sample at 1400
    expect(lagOf(samples, 150n, 1500)).toBe(300);
    expect(lagOf(samples, 50n, 1500)).toBe(500); // older than every sample: at least the window
    expect(lagOf([], 0n, 1500)).toBe(0);
  });
});
