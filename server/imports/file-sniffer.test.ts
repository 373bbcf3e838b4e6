import { describe, expect, it } from "vitest";
import { decodeStatement, sniffStatement } from "./file-sniffer";

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new TextEncoder().encode(text);
const withTail = (head: number[], text = "rest of the file") => new Uint8Array([...head, ...ascii(text)]);

describe("sniffStatement refuses what is not CSV text", () => {
  it.each([
    ["binary XLS (OLE2)", withTail([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), /XLS/],
    ["XLSX (zip)", withTail([0x50, 0x4b, 0x03, 0x04]), /ZIP/],
    ["ODS / empty zip", withTail([0x50, 0x4b, 0x05, 0x06]), /ZIP/],
    ["PDF", ascii("%PDF-1.7\n1 0 obj\n"), /PDF/],
    ["gzip", withTail([0x1f, 0x8b, 0x08]), /gzip/],
    ["UTF-16 LE", withTail([0xff, 0xfe], "D\0a\0t\0e\0"), /UTF-16/],
    ["HTML disguised as XLS", ascii("\n  <html><table><tr><td>Date</td></tr></table></html>"), /markup/],
    ["SpreadsheetML", ascii('<?xml version="1.0"?><Workbook>'), /markup/],
    ["NUL bytes", ascii("Date,Amount\n2024-01-01,\u0000\n"), /NUL/],
    ["control bytes", ascii("Date,Amount\u0002\n"), /control byte 0x02/],
    ["neither UTF-8 nor Windows-1252", bytes(...ascii("Caf"), 0x81, 0x0a), /neither/],
    ["a UTF-8 BOM on invalid UTF-8", bytes(0xef, 0xbb, 0xbf, ...ascii("Caf"), 0xe9), /not valid UTF-8/],
  ])("%s", (_name, input, reason) => {
    const result = sniffStatement(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe("sniffStatement accepts text", () => {
  it("plain ASCII is UTF-8 without BOM", () => {
    expect(sniffStatement(ascii("Date,Amount\r\n2024-01-01,1.00\r\n"))).toEqual({ ok: true, encoding: "utf-8", bom: false });
  });

  it("UTF-8 with a BOM: detected, and dropped by the decoder", () => {
    const input = bytes(0xef, 0xbb, 0xbf, ...new TextEncoder().encode("Händler;Betrag\nCafé;1,00\n"));
    const sniffed = sniffStatement(input);
    expect(sniffed).toEqual({ ok: true, encoding: "utf-8", bom: true });
    expect(decodeStatement(input, { encoding: "utf-8" })).toBe("Händler;Betrag\nCafé;1,00\n");
  });

  it("Windows-1252 when the bytes are not UTF-8 (é as 0xE9, € as 0x80)", () => {
    const input = bytes(...ascii("Shop;Amount\nCaf"), 0xe9, ...ascii(";"), 0x80, ...ascii("5\n"));
    const sniffed = sniffStatement(input);
    expect(sniffed).toEqual({ ok: true, encoding: "windows-1252", bom: false });
    expect(decodeStatement(input, { encoding: "windows-1252" })).toBe("Shop;Amount\nCafé;€5\n");
  });

  it("maps every assigned byte 80–9F through the Windows-1252 table", () => {
    const high = [0x80, 0x82, 0x84, 0x85, 0x8a, 0x8c, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97, 0x99, 0x9f];
    expect(decodeStatement(bytes(...high), { encoding: "windows-1252" })).toBe("€‚„…ŠŒ‘’“”–—™Ÿ");
  });

  it("allows TAB, CR, LF, FF and a final DOS end-of-file mark", () => {
    const input = bytes(...ascii("a\tb\r\n1\t2\f\n"), 0x1a);
    expect(sniffStatement(input)).toMatchObject({ ok: true, encoding: "utf-8" });
    expect(decodeStatement(input, { encoding: "utf-8" })).toBe("a\tb\r\n1\t2\f\n");
  });

  it("an empty file is text (the reader reports the missing header)", () => {
    expect(sniffStatement(new Uint8Array())).toEqual({ ok: true, encoding: "utf-8", bom: false });
  });
});
