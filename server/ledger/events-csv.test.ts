// The CSV cells of the events export: formula-looking text neutralised, amounts exact.
import { describe, expect, it } from "vitest";
import { safeCsvText, toCsv } from "./events-csv";
import { likeContains } from "./event-query";

describe("safeCsvText", () => {
  it("prefixes an apostrophe to what a spreadsheet would run", () => {
    for (const cell of ['=HYPERLINK("http://x","y")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"]) {
      expect(safeCsvText(cell)).toBe(`'${cell}`);
    }
    expect(safeCsvText("Figma = design")).toBe("Figma = design");
    expect(safeCsvText(null)).toBe("");
  });

  it("quotes cells with commas, quotes and line breaks (RFC 4180), CRLF line ends", () => {
    expect(toCsv([["a,b", 'say "hi"', "two\nlines"]], false)).toBe('"a,b","say ""hi""","two\nlines"\r\n');
    expect(toCsv([], false)).toBe("");
  });
});

describe("likeContains", () => {
  it("escapes LIKE's wildcards and its escape character", () => {
    expect(likeContains("50%")).toBe("%50\\%%");
    expect(likeContains("a_b")).toBe("%a\\_b%");
    expect(likeContains("c:\\x")).toBe("%c:\\\\x%");
  });
});
