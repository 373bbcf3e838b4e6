// "3 minutes ago" for the integrations page: the largest unit that fits, rounded.
import { describe, expect, it } from "vitest";
import { relativeWords, wordsLocale } from "./relative-words";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const format = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const ago = (seconds: number) => relativeWords(new Date(NOW - seconds * 1000).toISOString(), NOW, format);

describe("relativeWords", () => {
  it("says now for less than 45 seconds either way", () => {
    expect([0, 44, -44].map(ago)).toEqual(["now", "now", "now"]);
  });

  it("counts minutes from 45 seconds, then hours, days, weeks, months and years", () => {
    expect(ago(45)).toBe("1 minute ago");
    expect(ago(59)).toBe("1 minute ago");
    expect(ago(5 * 60)).toBe("5 minutes ago");
    expect(ago(100 * 60)).toBe("2 hours ago");
    expect(ago(26 * 3600)).toBe("yesterday");
    expect(ago(3 * 86_400)).toBe("3 days ago");
    expect(ago(8 * 86_400)).toBe("last week");
    expect(ago(45 * 86_400)).toBe("last month");
    expect(ago(80 * 86_400)).toBe("3 months ago");
    expect(ago(400 * 86_400)).toBe("last year");
  });

  it("speaks of the future too", () => {
    expect(ago(-5 * 60)).toBe("in 5 minutes");
    expect(ago(-30 * 3600)).toBe("tomorrow");
  });
});

describe("wordsLocale", () => {
  it("writes the panel's words in English in the owner's region, never in the owner's language", () => {
    expect(wordsLocale("de-DE")).toBe("en-DE");
    expect(wordsLocale("en-GB")).toBe("en-GB");
    expect(wordsLocale("fr")).toBe("en");
    expect(wordsLocale("not a locale")).toBe("en");
    const ago = new Intl.RelativeTimeFormat(wordsLocale("de-DE"), { numeric: "auto" }).format(-9, "minute");
    expect(ago).toBe("9 minutes ago");
  });
});
