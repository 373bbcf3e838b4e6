// What an uploaded statement is, from its bytes alone (contract: Import rules 3). The
// Content-Type and the file name are the browser's guess; the bytes decide.
//
// THE rule, in this order:
//   1. Refused (→ 415 unsupported_media_type) when the bytes start with a known binary or
//      document signature: OLE2 (binary XLS/DOC: D0 CF 11 E0 A1 B1 1A E1), any ZIP container
//      (XLSX, ODS, DOCX: "PK" 03 04, 05 06 or 07 08), PDF ("%PDF-"), gzip (1F 8B), a UTF-16 or
//      UTF-32 byte-order mark (Excel's "Unicode text": save as UTF-8 CSV instead), or markup
//      (an HTML or XML "spreadsheet": `<?xml`, `<!DOCTYPE`, `<html`, `<table`, RTF `{\rtf`), unless the
//      markup is an XML bank statement (OFX 2.x / QFX, CAMT.053 / .052: pinned-wave3 §3).
//   2. Refused when any byte is NUL, or a control character other than TAB, LF, VT, FF, CR
//      (a single SUB 0x1A, the old DOS end-of-file mark, is allowed as the very last byte).
//      Text files never contain them; binaries almost always do within the first bytes.
//   3. UTF-8 (with or without its BOM EF BB BF) when the bytes are valid UTF-8 (a strict
//      decoder: overlong forms and lone surrogates are invalid). Plain ASCII is UTF-8.
//   4. Otherwise Windows-1252, the encoding of spreadsheet exports on Western Windows
//      machines, and a superset of ISO-8859-1's printable range. Bytes 81 8D 8F 90 9D are
//      unassigned in Windows-1252: a file containing them is neither encoding, and refused.
// An empty file is text (ok): that it holds no header row is the reader's error to report.

export type TStatementEncoding = "utf-8" | "windows-1252";

export type TSniffResult = { ok: true; encoding: TStatementEncoding; bom: boolean } | { ok: false; reason: string };

const SIGNATURES: ReadonlyArray<{ bytes: readonly number[]; what: string }> = [
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: "a binary spreadsheet (XLS) or Office document" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP container (XLSX, ODS or another archive)" },
  { bytes: [0x50, 0x4b, 0x05, 0x06], what: "a ZIP container (XLSX, ODS or another archive)" },
  { bytes: [0x50, 0x4b, 0x07, 0x08], what: "a ZIP container (XLSX, ODS or another archive)" },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: "a PDF document" },
  { bytes: [0x1f, 0x8b], what: "a gzip archive" },
  // UTF-32 LE before UTF-16 LE: FF FE 00 00 starts with FF FE.
  { bytes: [0xff, 0xfe, 0x00, 0x00], what: "UTF-32 text (save the statement as UTF-8 CSV)" },
  { bytes: [0x00, 0x00, 0xfe, 0xff], what: "UTF-32 text (save the statement as UTF-8 CSV)" },
  { bytes: [0xff, 0xfe], what: "UTF-16 text (save the statement as UTF-8 CSV)" },
  { bytes: [0xfe, 0xff], what: "UTF-16 text (save the statement as UTF-8 CSV)" },
];

/** Markup that some banks serve as ".xls" or ".csv"; compared lower-case after the BOM and blanks. */
const MARKUP_STARTS = ["<?xml", "<!doctype", "<html", "<table", "{\\rtf"];

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** Unassigned in Windows-1252 (the WHATWG decoder would pass them through as C1 controls). */
const UNASSIGNED_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

/** Allowed C0 controls: TAB, LF, VT, FF, CR. */
function isAllowedControl(byte: number): boolean {
  return byte >= 0x09 && byte <= 0x0d;
}

function hex(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, "0");
}

/**
 * An XML bank statement (pinned-wave3 §3), which is text and read on: OFX 2.x / QFX (an <?OFX …?>
 * instruction or an <OFX> element) or ISO 20022 CAMT.053 / .052 (their namespace or top element),
 * found in the first 4 KiB.
 */
function isBankXml(bytes: Uint8Array, start: number): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(start, start + 4096));
  return (
    /<\?OFX\s|<OFX>/i.test(head) ||
    /urn:iso:std:iso:20022:tech:xsd:camt\.05[23]\.|<(\w+:)?(BkToCstmrStmt|BkToCstmrAcctRpt)[\s>]/.test(head)
  );
}

/** Decides whether the bytes are a text statement and in which encoding (see the rule above). */
export function sniffStatement(bytes: Uint8Array): TSniffResult {
  for (const signature of SIGNATURES) {
    if (startsWith(bytes, signature.bytes)) return { ok: false, reason: `The file is ${signature.what}, not CSV text.` };
  }
  const bom = startsWith(bytes, UTF8_BOM);

  let start = bom ? UTF8_BOM.length : 0;
  while (start < bytes.length && (bytes[start] === 0x20 || isAllowedControl(bytes[start]!))) start++;
  const head = String.fromCharCode(...bytes.subarray(start, start + 16)).toLowerCase();
  if (MARKUP_STARTS.some((markup) => head.startsWith(markup)) && !isBankXml(bytes, start)) {
    return { ok: false, reason: "The file is HTML, XML or RTF markup, not CSV text." };
  }

  let highBytes = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x20) {
      if (byte >= 0x80) highBytes = true;
      continue;
    }
    if (isAllowedControl(byte) || (byte === 0x1a && i === bytes.length - 1)) continue;
    const what = byte === 0 ? "NUL bytes" : `the control byte 0x${hex(byte)}`;
    return { ok: false, reason: `The file contains ${what} at offset ${i}: it is not a text file.` };
  }
  if (!highBytes) return { ok: true, encoding: "utf-8", bom };

  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { ok: true, encoding: "utf-8", bom };
  } catch {
    // Not UTF-8: Windows-1252, unless it uses a byte that encoding leaves unassigned.
  }
  if (bom) return { ok: false, reason: "The file starts with a UTF-8 byte-order mark but is not valid UTF-8." };
  const unassigned = bytes.findIndex((byte) => UNASSIGNED_1252.has(byte));
  if (unassigned >= 0) {
    return {
      ok: false,
      reason: `The file is neither UTF-8 nor Windows-1252 text (byte 0x${hex(bytes[unassigned]!)} at offset ${unassigned}).`,
    };
  }
  return { ok: true, encoding: "windows-1252", bom: false };
}

// Windows-1252's bytes 80–9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ). Node's
// TextDecoder("windows-1252") decodes them as Latin-1 (C1 controls U+0080–U+009F) instead of
// the WHATWG table, so the table is applied here. 0 marks the unassigned bytes (refused above).
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018,
  0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * The text of a statement that `sniffStatement` accepted, without its BOM. A trailing SUB
 * (0x1A) is dropped with it.
 */
export function decodeStatement(bytes: Uint8Array, sniffed: { encoding: TStatementEncoding }): string {
  let text: string;
  if (sniffed.encoding === "utf-8") {
    // TextDecoder drops a leading UTF-8 BOM itself (ignoreBOM defaults to false).
    text = new TextDecoder("utf-8").decode(bytes);
  } else {
    text = new TextDecoder("windows-1252").decode(bytes);
    text = text.replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80] || c.charCodeAt(0)));
  }
  return text.endsWith("\u001a") ? text.slice(0, -1) : text;
}
