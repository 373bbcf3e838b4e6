// The matching rule in JS (matching-rule.ts); matching-rule.int.test.ts holds the SQL side to it.
import { describe, expect, it } from "vitest";
import { matchKey, pairLines, type TMatchEvent, type TMatchLine } from "./matching-rule";

const KEY = matchKey("EUR", -500, "out");
const line = (id: string, day: string, row = 0, createdAt = 0): TMatchLine => ({ id, day, createdAt, row, key: KEY });
const event = (id: string, day: string, createdAt = 0, key = KEY): TMatchEvent => ({ id, day, createdAt, key });
const pairs = (lines: TMatchLine[], events: TMatchEvent[]) => Object.fromEntries(pairLines(lines, events));

describe("pairLines", () => {
  it("keys on currency, absolute amount and direction", () => {
    expect(matchKey("EUR", 500n, "out")).toBe(KEY);
    expect(pairs([line("l", "2026-11-10")], [event("in", "2026-11-10", 0, matchKey("EUR", 500, "in"))])).toEqual({});
  });

  it("pairs within 3 days, not 4", () => {
    expect(pairs([line("l", "2026-11-10")], [event("far", "2026-11-14"), event("near", "2026-11-07")])).toEqual({ l: "near" });
  });

  it("serves the oldest line first, each taking its closest free event", () => {
    const lines = [line("l12", "2026-11-12", 1), line("l11", "2026-11-11", 2), line("l10", "2026-11-10", 3)];
    expect(pairs(lines, [event("e13", "2026-11-13"), event("e12", "2026-11-12")])).toEqual({ l10: "e12", l11: "e13" });
  });

  it("breaks ties: lines by creation then file order; events by closeness, creation, then id", () => {
    const lines = [line("b", "2026-11-10", 2), line("a", "2026-11-10", 1)];
    expect(pairs(lines, [event("late", "2026-11-10", 20), event("early", "2026-11-10", 10)])).toEqual({ a: "early", b: "late" });
    expect(pairs([line("l", "2026-11-10")], [event("before", "2026-11-09", 20), event("after", "2026-11-11", 10)])).toEqual({
      l: "after",
    });
    expect(pairs([line("l", "2026-11-10")], [event("e2", "2026-11-10"), event("e1", "2026-11-10")])).toEqual({ l: "e1" });
    expect(pairs([line("later", "2026-11-10", 1, 5), line("stored", "2026-11-10", 9, 1)], [event("e", "2026-11-10")])).toEqual({
      stored: "e",
    });
  });
});
