import { describe, expect, it } from "vitest";
import { coverageStatus } from "./cash-coverage";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = 60 * 60 * 1000;

describe("coverageStatus", () => {
  it("is mostly_covered under 24 hours, incomplete up to 7 days, then missing", () => {
    expect(coverageStatus(null, NOW)).toBe("missing");
    expect(coverageStatus(new Date(NOW.getTime() + 60_000), NOW)).toBe("mostly_covered");
    expect(coverageStatus(NOW, NOW)).toBe("mostly_covered");
    expect(coverageStatus(ago(24 * HOUR - 1), NOW)).toBe("mostly_covered");
    expect(coverageStatus(ago(24 * HOUR), NOW)).toBe("incomplete");
    expect(coverageStatus(ago(7 * 24 * HOUR), NOW)).toBe("incomplete");
    expect(coverageStatus(ago(7 * 24 * HOUR + 1), NOW)).toBe("missing");
  });
});
