// Spreadsheet files for the tests of the panel's XLSX/ODS converter, written the way the
// programs that make them do (not the way our reader reads them):
//   - xlsxFile: Excel's shape (ECMA-376): text in sharedStrings.xml (rich runs, phonetic guides),
//     dates as serial days under a date style, amounts as numbers under a thousands-separated
//     format, formulas with their cached result, booleans, errors, inline strings; options for
//     what other writers do (the 1904 date system, the x: prefix of the OpenXML SDK, cells
//     without r, absolute relationship targets, a hidden first sheet).
//   - odsFile: LibreOffice's content.xml (office:value-type with its value, calcext:value-type
//     beside it, <text:s/> for runs of spaces, repeated empty rows and columns to the sheet's edge).
// Real files LibreOffice wrote are in test/fixtures/spreadsheets/ beside these.
import { strToU8, zipSync } from "fflate";

/** A cell as a writer holds it. Dates are serial days (xlsx) or ISO dates (ods). */
export type TFixtureCell =
  | { text: string; rich?: boolean; inline?: boolean }
  | { number: number | string; format?: "thousands" | "currency" | "percent" }
  | { date: string; time?: string }
  | { formula: string; cached: number | string | null; kind?: "number" | "text" }
  | { bool: boolean }
  | { error: string }
  | null;

export type TFixtureSheet = { name: string; rows: TFixtureCell[][]; hidden?: boolean };

export type TXlsxOptions = {
  date1904?: boolean;
  /** Prefix every SpreadsheetML element with x: (the OpenXML SDK's habit). */
  prefix?: boolean;
  /** Leave out the cells' r attributes (allowed: cells are then in order). */
  noRefs?: boolean;
  /** Relationship targets as absolute part names ("/xl/worksheets/sheet1.xml"). */
  absoluteTargets?: boolean;
  /** A custom date format instead of the built-in 14 (m/d/yyyy). */
  dateFormat?: string;
};

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Days since the epoch of the date system (1900 with its phantom 29 February, or 1904). */
export function serialOf(isoDate: string, date1904 = false): number {
  const ms = Date.parse(`${isoDate}T00:00:00Z`);
  if (date1904) return Math.round((ms - Date.UTC(1904, 0, 1)) / 86_400_000);
  const days = Math.round((ms - Date.UTC(1899, 11, 30)) / 86_400_000);
  return days < 61 ? days - 1 : days;
}

function fractionOf(time: string): number {
  const [h, m, s] = time.split(":").map(Number);
  return ((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)) / 86_400;
}

/** Style indexes of cellXfs below. */
const STYLE = { general: 0, date: 1, thousands: 2, currency: 3, percent: 4, datetime: 5 } as const;

function stylesXml(dateFormat: string | undefined): string {
  const dateId = dateFormat ? 164 : 14;
  const numFmts = [
    dateFormat ? `<numFmt numFmtId="164" formatCode="${escapeXml(dateFormat)}"/>` : "",
    `<numFmt numFmtId="165" formatCode="${escapeXml('_-* #,##0.00\\ "€"_-;\\-* #,##0.00\\ "€"_-;_-* "-"??\\ "€"_-;_-@_-')}"/>`,
    `<numFmt numFmtId="166" formatCode="${escapeXml("[$-409]m/d/yy\\ h:mm\\ AM/PM;@")}"/>`,
  ].join("");
  const xf = (id: number) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<numFmts count="3">${numFmts}</numFmts>` +
    `<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
    `<fills count="1"><fill><patternFill patternType="none"/></fill></fills>` +
    `<borders count="1"><border/></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="6">${xf(0)}${xf(dateId)}${xf(4)}${xf(165)}${xf(10)}${xf(166)}</cellXfs>` +
    `</styleSheet>`
  );
}

/** An XLSX file of the sheets, in Excel's shape. */
export function xlsxFile(sheets: TFixtureSheet[], options: TXlsxOptions = {}): Uint8Array {
  const x = options.prefix ? "x:" : "";
  const ns = options.prefix
    ? `xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
    : `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`;
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const shared = (xml: string) => {
    let index = stringIndex.get(xml);
    if (index === undefined) {
      index = strings.length;
      strings.push(xml);
      stringIndex.set(xml, index);
    }
    return index;
  };

  const sheetXml = (sheet: TFixtureSheet) => {
    const rows = sheet.rows.map((cells, r) => {
      const xml = cells.map((cell, c) => {
        if (cell === null) return "";
        const ref = options.noRefs ? "" : ` r="${columnName(c)}${r + 1}"`;
        if ("text" in cell) {
          if (cell.inline)
            return `<${x}c${ref} t="inlineStr"><${x}is><${x}t xml:space="preserve">${escapeXml(cell.text)}</${x}t></${x}is></${x}c>`;
          const item = cell.rich
            ? // Two runs, the second bold, and a phonetic guide that is not part of the text.
              `<${x}r><${x}t xml:space="preserve">${escapeXml(cell.text.slice(0, 3))}</${x}t></${x}r><${x}r><${x}rPr><${x}b/></${x}rPr><${x}t xml:space="preserve">${escapeXml(cell.text.slice(3))}</${x}t></${x}r><${x}rPh sb="0" eb="1"><${x}t>ルビ</${x}t></${x}rPh>`
            : `<${x}t xml:space="preserve">${escapeXml(cell.text)}</${x}t>`;
          return `<${x}c${ref} t="s"><${x}v>${shared(item)}</${x}v></${x}c>`;
        }
        if ("number" in cell) {
          const style = cell.format ? STYLE[cell.format] : STYLE.general;
          return `<${x}c${ref}${style ? ` s="${style}"` : ""}><${x}v>${cell.number}</${x}v></${x}c>`;
        }
        if ("date" in cell) {
          const serial = serialOf(cell.date, options.date1904) + (cell.time ? fractionOf(cell.time) : 0);
          return `<${x}c${ref} s="${cell.time ? STYLE.datetime : STYLE.date}"><${x}v>${serial}</${x}v></${x}c>`;
        }
        if ("formula" in cell) {
          const cached = cell.cached === null ? "" : `<${x}v>${escapeXml(String(cell.cached))}</${x}v>`;
          const type = cell.kind === "text" ? ` t="str"` : "";
          return `<${x}c${ref}${type} s="${STYLE.thousands}"><${x}f>${escapeXml(cell.formula)}</${x}f>${cached}</${x}c>`;
        }
        if ("bool" in cell) return `<${x}c${ref} t="b"><${x}v>${cell.bool ? 1 : 0}</${x}v></${x}c>`;
        return `<${x}c${ref} t="e"><${x}v>${escapeXml(cell.error)}</${x}v></${x}c>`;
      });
      return `<${x}row r="${r + 1}">${xml.join("")}</${x}row>`;
    });
    return (
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
      `<${x}worksheet ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      `<${x}sheetViews><${x}sheetView workbookViewId="0"/></${x}sheetViews>` +
      `<${x}sheetData>${rows.join("")}</${x}sheetData></${x}worksheet>`
    );
  };

  const files: Record<string, Uint8Array> = {};
  sheets.forEach((sheet, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet))));
  const target = (path: string) => (options.absoluteTargets ? `/xl/${path}` : path);
  files["[Content_Types].xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join("") +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
  );
  files["_rels/.rels"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  files["xl/workbook.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${x}workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      `<${x}workbookPr${options.date1904 ? ` date1904="1"` : ""} defaultThemeVersion="166925"/>` +
      `<${x}sheets>${sheets
        .map(
          (s, i) =>
            `<${x}sheet name="${escapeXml(s.name)}" sheetId="${i + 1}"${s.hidden ? ` state="hidden"` : ""} r:id="rId${i + 1}"/>`,
        )
        .join("")}</${x}sheets></${x}workbook>`,
  );
  const n = sheets.length;
  files["xl/_rels/workbook.xml.rels"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="${target(`worksheets/sheet${i + 1}.xml`)}"/>`,
        )
        .join("") +
      `<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="${target("styles.xml")}"/>` +
      `<Relationship Id="rId${n + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="${target("sharedStrings.xml")}"/></Relationships>`,
  );
  files["xl/styles.xml"] = strToU8(stylesXml(options.dateFormat));
  files["xl/sharedStrings.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${x}sst ${ns} count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((item) => `<${x}si>${item}</${x}si>`).join("") +
      `</${x}sst>`,
  );
  return zipSync(files);
}

/** A paragraph's text as LibreOffice writes it: a run of spaces after the first as <text:s text:c="n"/>. */
function odsParagraph(text: string): string {
  return escapeXml(text)
    .replace(/ {2,}/g, (spaces) => ` <text:s${spaces.length > 2 ? ` text:c="${spaces.length - 1}"` : ""}/>`)
    .replace(/\t/g, "<text:tab/>");
}

/** An ODS file of the sheets, in LibreOffice's shape. */
export function odsFile(sheets: TFixtureSheet[]): Uint8Array {
  const cellXml = (cell: TFixtureCell): string => {
    if (cell === null) return `<table:table-cell/>`;
    if ("text" in cell)
      return `<table:table-cell office:value-type="string" calcext:value-type="string">${cell.text
        .split("\n")
        .map((line) => `<text:p>${odsParagraph(line)}</text:p>`)
        .join("")}</table:table-cell>`;
    if ("number" in cell) {
      const type = cell.format === "percent" ? "percentage" : cell.format === "currency" ? "currency" : "float";
      const currency = type === "currency" ? ` office:currency="EUR"` : "";
      return `<table:table-cell table:style-name="ce2" office:value-type="${type}"${currency} office:value="${cell.number}" calcext:value-type="${type}"><text:p>display text</text:p></table:table-cell>`;
    }
    if ("date" in cell) {
      const value = cell.time ? `${cell.date}T${cell.time}` : cell.date;
      return `<table:table-cell table:style-name="ce1" office:value-type="date" office:date-value="${value}" calcext:value-type="date"><text:p>display text</text:p></table:table-cell>`;
    }
    if ("formula" in cell) {
      if (cell.kind === "text")
        return `<table:table-cell table:formula="of:${escapeXml(cell.formula)}" office:value-type="string" office:string-value="${escapeXml(String(cell.cached ?? ""))}" calcext:value-type="string"><text:p>${escapeXml(String(cell.cached ?? ""))}</text:p></table:table-cell>`;
      // A formula never calculated (a file a script wrote) holds no value.
      if (cell.cached === null) return `<table:table-cell table:formula="of:${escapeXml(cell.formula)}"/>`;
      return `<table:table-cell table:formula="of:${escapeXml(cell.formula)}" office:value-type="float" office:value="${cell.cached}" calcext:value-type="float"><text:p>display text</text:p></table:table-cell>`;
    }
    if ("bool" in cell)
      return `<table:table-cell office:value-type="boolean" office:boolean-value="${cell.bool}" calcext:value-type="boolean"><text:p>${cell.bool ? "TRUE" : "FALSE"}</text:p></table:table-cell>`;
    return `<table:table-cell table:formula="of:=NA()" office:string-value="" calcext:value-type="error"><text:p>${escapeXml(cell.error)}</text:p></table:table-cell>`;
  };
  const tables = sheets.map(
    (sheet) =>
      `<table:table table:name="${escapeXml(sheet.name)}" table:style-name="${sheet.hidden ? "ta2" : "ta1"}">` +
      `<table:table-column table:number-columns-repeated="1024"/>` +
      sheet.rows
        .map(
          (row) =>
            `<table:table-row>${row.map(cellXml).join("")}<table:table-cell table:number-columns-repeated="${1024 - row.length}"/></table:table-row>`,
        )
        .join("") +
      `<table:table-row table:number-rows-repeated="${1048576 - sheet.rows.length}"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
      `</table:table>`,
  );
  const content =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3">` +
    `<office:automatic-styles>` +
    `<style:style style:name="ta1" style:family="table" style:master-page-name="Default"><style:table-properties table:display="true" style:writing-mode="lr-tb"/></style:style>` +
    `<style:style style:name="ta2" style:family="table" style:master-page-name="Default"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style>` +
    `</office:automatic-styles>` +
    `<office:body><office:spreadsheet><table:calculation-settings table:automatic-find-labels="false"/>${tables.join("")}<table:named-expressions/></office:spreadsheet></office:body></office:document-content>`;
  return zipSync({
    // The mimetype first and stored, as OpenDocument requires.
    mimetype: [strToU8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
    "META-INF/manifest.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ),
    "content.xml": strToU8(content),
  });
}
