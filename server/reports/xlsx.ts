// A minimal XLSX (SpreadsheetML in a zip, ECMA-376) of one worksheet: text cells as inline
// strings (never formulas: a cell is a formula only with an <f> element, which this never
// writes), number cells as their exact decimal text (no float ever holds an amount: minor units
// become decimals by string arithmetic, lib/money), date cells as serial days with a date format.
// The zip is fflate's.
import { strToU8, zipSync } from "fflate";
import { daysBetween } from "../../lib/days";

/** A cell: text, a number (its exact decimal text, and the decimals to show), a day (YYYY-MM-DD), or empty. */
export type TXlsxCell = { text: string } | { number: string; decimals: number } | { date: string } | null;

/** Excel's day 0 (1900 date system, its leap-year bug included for every date after February 1900). */
const EPOCH = "1899-12-30";

function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
  );
}

function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The number formats by decimals: style 2 + decimals (0 to 4); style 1 is the date. */
const MAX_DECIMALS = 4;

function stylesXml(): string {
  const numFmts = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) => {
    const code = d === 0 ? "#,##0" : `#,##0.${"0".repeat(d)}`;
    return `<numFmt numFmtId="${164 + d}" formatCode="${code}"/>`;
  });
  const xfs = [
    `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`,
    `<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
    ...Array.from(
      { length: MAX_DECIMALS + 1 },
      (_, d) => `<xf numFmtId="${164 + d}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
    ),
  ];
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<numFmts count="${numFmts.length}">${numFmts.join("")}</numFmts>` +
    `<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
    `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
    `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs>` +
    `</styleSheet>`
  );
}

function cellXml(cell: TXlsxCell, ref: string): string {
  if (cell === null) return "";
  if ("text" in cell) return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell.text)}</t></is></c>`;
  if ("date" in cell) return `<c r="${ref}" s="1"><v>${daysBetween(EPOCH, cell.date)}</v></c>`;
  if (!/^-?\d+(\.\d+)?$/.test(cell.number)) throw new Error(`Not a decimal: ${cell.number}`);
  return `<c r="${ref}" s="${2 + Math.min(cell.decimals, MAX_DECIMALS)}"><v>${cell.number}</v></c>`;
}

function sheetXml(rows: readonly (readonly TXlsxCell[])[]): string {
  const body = rows
    .map((row, r) => `<row r="${r + 1}">${row.map((cell, c) => cellXml(cell, `${columnName(c)}${r + 1}`)).join("")}</row>`)
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`
  );
}

/** One worksheet named `sheet` as an .xlsx file. */
export function xlsxFile(sheet: string, rows: readonly (readonly TXlsxCell[])[]): Uint8Array {
  const name = escapeXml(sheet.replace(/[\\/?*[\]:]/g, " ").slice(0, 31));
  const files: Record<string, string> = {
    "[Content_Types].xml":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      `</Types>`,
    "_rels/.rels":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
      `</Relationships>`,
    "xl/workbook.xml":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
      `</Relationships>`,
    "xl/styles.xml": stylesXml(),
    "xl/worksheets/sheet1.xml": sheetXml(rows),
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])), { level: 6 });
}
