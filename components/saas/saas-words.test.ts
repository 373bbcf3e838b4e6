import { describe, expect, it } from "vitest";
import { formatMonth, formatRatio } from "./saas-words";

describe("SaaS words", () => {
  it("names a month in the locale", () => {
    expect(formatMonth("2026-03", "en-US")).toBe("Mar 2026");
    expect(formatMonth("2026-12", "de-DE")).toBe("Dez. 2026");
  });

  it("shows a ratio as a percentage with up to 2 decimals, null as a dash", () => {
    expect(formatRatio(0.3333, "en-US")).toBe("33.33%");
    expect(formatRatio(1.0588, "en-US")).toBe("105.88%");
    expect(formatRatio(0, "en-US")).toBe("0%");
    expect(formatRatio(null, "en-US")).toBe("—");
  });
});
