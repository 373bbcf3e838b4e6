// Spreadsheets (XLSX and ODS) turned into the CSV the import takes, in the browser (contract:
// Import rules 3, pinned-wave3 §3: the server keeps refusing every binary file with 415). This
// module is loaded only by the import page's upload step, on demand (a dynamic import), so no
// other page carries fflate and the XML parser.
//
// What a cell becomes is what the cell holds, never its display text:
//   - a number: its value in plain decimal notation, without thousands separators or currency
//     signs, at Excel's own precision of 15 significant digits (so 0.1 + 0.2 computed by a
//     formula is 0.3, not 0.30000000000000004; a stored "1.5E-3" becomes 0.0015);
//   - a date (a number under a date format in XLSX, a date value in ODS): YYYY-MM-DD, with
//     THH:MM:SS only when it has a time of day; a time alone: HH:MM:SS;
//   - a formula: its cached result (the formula text is never read, so nothing the upload
//     carries is a formula); a formula without a cached result is empty;
//   - a boolean: TRUE or FALSE; an error: its code (#N/A); text: as written.
// Fully empty rows are left out and trailing empty columns trimmed; the rows are padded to one
// width so the CSV is rectangular (RFC 4180, CRLF, quotes only where needed).
//
// XLSX (ECMA-376): xl/workbook.xml names the sheets and their parts (through its relationships),
// sharedStrings.xml the text, styles.xml the number formats that make a number a date
// (the built-in date formats 14–22, 27–36, 45–47, 50–58, or a custom code with d, m, y, h or s
// outside quotes and brackets), workbookPr date1904 the epoch. ODS (OpenDocument 1.2+):
// content.xml, table:table per sheet, office:value-type with office:value / date-value /
// time-value / boolean-value, and table:number-rows-repeated / number-columns-repeated.
import { unzipSync } from "fflate";
import { XMLParser } from "fast-xml-parser";

export type TSheet = { name: string; hidden: boolean };

export type TWorkbook = {
  kind: "xlsx" | "ods";
  sheets: TSheet[];
  /** The first sheet that is not hidden (0 when all are). */
  defaultSheet: number;
  /** The sheet as CSV text, and how many rows (the header included) it has. */
  toCsv: (sheetIndex: number) => { csv: string; rows: number };
};

/** A file the converter cannot read; its message is for the owner. */
export class SpreadsheetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpreadsheetError";
  }
}

/** Parts larger than this (uncompressed) are refused: a zip bomb must not take the tab down. */
const MAX_PART_BYTES = 256 * 1024 * 1024;
/** Columns kept per row (Excel's own limit is 16,384; no statement comes near). */
const MAX_COLUMNS = 1024;
/** Rows kept per sheet; far beyond what 10 MB of CSV holds. */
const MAX_ROWS = 1_000_000;
/** Excel shows and computes with 15 significant digits; more are binary noise. */
const SIGNIFICANT_DIGITS = 15;

// --- XML, as fast-xml-parser's ordered tree ---

type TNode = Record<string, unknown>;

const parserOptions = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
} as const;
// SpreadsheetML without prefixes: x:c and c alike (writers differ in the prefix they use).
const xlsxParser = new XMLParser({ ...parserOptions, removeNSPrefix: true });
// OpenDocument keeps them: office:value-type and LibreOffice's calcext:value-type would collide.
const odsParser = new XMLParser({ ...parserOptions, removeNSPrefix: false });

function parseXml(bytes: Uint8Array, part: string, parser: XMLParser = xlsxParser): TNode[] {
  try {
    return parser.parse(new TextDecoder("utf-8").decode(bytes)) as TNode[];
  } catch {
    throw new SpreadsheetError(`The spreadsheet's ${part} could not be read: the file may be damaged.`);
  }
}

function tagOf(node: TNode): string | null {
  for (const key of Object.keys(node)) if (key !== ":@") return key;
  return null;
}

function childrenOf(node: TNode): TNode[] {
  const tag = tagOf(node);
  const value = tag ? node[tag] : undefined;
  return Array.isArray(value) ? (value as TNode[]) : [];
}

function attrsOf(node: TNode): Record<string, string> {
  return (node[":@"] as Record<string, string> | undefined) ?? {};
}

/** The children with this tag. */
function named(nodes: TNode[], tag: string): TNode[] {
  return nodes.filter((node) => tagOf(node) === tag);
}

/** The first element with this tag along a path of tags, or undefined. */
function find(nodes: TNode[], ...path: string[]): TNode | undefined {
  let level = nodes;
  let found: TNode | undefined;
  for (const tag of path) {
    found = level.find((node) => tagOf(node) === tag);
    if (!found) return undefined;
    level = childrenOf(found);
  }
  return found;
}

/** All text below the nodes, in order, leaving out the elements named in skip. */
function textOf(nodes: TNode[], skip: ReadonlySet<string> = new Set()): string {
  let text = "";
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "#text") text += String(node["#text"]);
    else if (tag && !skip.has(tag)) text += textOf(childrenOf(node), skip);
  }
  return text;
}

// --- values ---

/** A number's text in plain decimal notation at 15 significant digits ("1.5E-3" → "0.0015"). */
export function plainNumber(raw: string): string {
  const value = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(value)) return raw.trim();
  if (value === 0) return "0";
  const [mantissa, exponentText] = value.toExponential(SIGNIFICANT_DIGITS - 1).split("e");
  const negative = mantissa!.startsWith("-");
  const digits = mantissa!.replace(/[-.]/g, "").replace(/0+$/, "") || "0";
  const exponent = Number(exponentText);
  // digits d1 d2 … with the point after d1, times 10^exponent.
  const point = exponent + 1;
  let text: string;
  if (point <= 0) text = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) text = digits + "0".repeat(point - digits.length);
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** HH:MM:SS of a fraction of a day, rounded to the second. */
function timeOfFraction(fraction: number): string {
  const seconds = Math.round(fraction * 86_400) % 86_400;
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/**
 * The ISO date (and time, when it has one) of a spreadsheet serial day. The 1900 system counts
 * from 1899-12-31 as day 0 and keeps Lotus 1-2-3's phantom 1900-02-29 (day 60), so from day 61
 * on the count is from 1899-12-30; the 1904 system counts from 1904-01-01.
 */
export function dateOfSerial(serial: number, date1904: boolean, withTime: boolean): string {
  // Rounded to the second first, so 0.99999999 of a day is the next midnight, not 23:59:60.
  const rounded = Math.round(serial * 86_400) / 86_400;
  const days = Math.floor(rounded);
  const fraction = rounded - days;
  let epoch: number;
  if (date1904) epoch = Date.UTC(1904, 0, 1);
  else if (days >= 61) epoch = Date.UTC(1899, 11, 30);
  else if (days === 60) return withTime && fraction > 0 ? `1900-02-29T${timeOfFraction(fraction)}` : "1900-02-29";
  else epoch = Date.UTC(1899, 11, 31);
  const date = new Date(epoch + days * 86_400_000);
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return withTime && fraction > 0 ? `${day}T${timeOfFraction(fraction)}` : day;
}

/** An ISO date-time of a cell (ODS date-value, XLSX t="d"): the day alone at midnight. */
function isoDateValue(raw: string): string {
  const match = /^(-?\d{4,}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?/.exec(raw.trim());
  if (!match) return raw.trim();
  const time = match[2] && /^00:00(:00)?$/.test(match[2]) ? undefined : match[2];
  return time ? `${match[1]}T${time.length === 5 ? `${time}:00` : time}` : match[1]!;
}

/** HH:MM:SS of an ISO duration (ODS time-value, "PT13H45M00S"). */
function timeOfDuration(raw: string): string {
  const match = /^-?P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(raw.trim());
  if (!match) return raw.trim();
  const hours = Number(match[1] ?? 0) * 24 + Number(match[2] ?? 0);
  return `${pad(hours)}:${pad(Number(match[3] ?? 0))}:${pad(Math.round(Number(match[4] ?? 0)))}`;
}

// --- CSV ---

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows (sparse: undefined is an empty cell) as CSV, empty rows left out, trailing empty columns trimmed. */
function toCsvText(rows: Array<Array<string | undefined>>): { csv: string; rows: number } {
  const kept = rows.filter((row) => row.some((cell) => cell !== undefined && cell !== ""));
  let width = 0;
  for (const row of kept) for (let i = row.length - 1; i >= width; i--) if (row[i] !== undefined && row[i] !== "") width = i + 1;
  const lines = kept.map((row) => Array.from({ length: width }, (_, i) => csvField(row[i] ?? "")).join(","));
  return { csv: lines.length ? `${lines.join("\r\n")}\r\n` : "", rows: lines.length };
}

// --- the zip ---

function unzip(bytes: Uint8Array, wanted: (name: string) => boolean): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        if (file.originalSize > MAX_PART_BYTES) throw new SpreadsheetError("The spreadsheet is too large to read here.");
        return true;
      },
    });
  } catch (caught) {
    if (caught instanceof SpreadsheetError) throw caught;
    throw new SpreadsheetError("The file is not a readable XLSX or ODS spreadsheet: its zip container is damaged.");
  }
}

const ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet";

/** The workbook in an XLSX or ODS file (recognized by its parts, not its name). */
export function readWorkbook(bytes: Uint8Array): TWorkbook {
  const entries = unzip(bytes, (name) => name === "mimetype" || name === "content.xml" || name === "[Content_Types].xml");
  const mimetype = entries.mimetype ? new TextDecoder().decode(entries.mimetype).trim() : "";
  if (mimetype === ODS_MIMETYPE || (!entries["[Content_Types].xml"] && entries["content.xml"] && !mimetype))
    return readOds(bytes);
  if (entries["[Content_Types].xml"]) return readXlsx(bytes);
  if (mimetype.startsWith("application/vnd.oasis.opendocument."))
    throw new SpreadsheetError(
      "This is an OpenDocument file but not a spreadsheet (ODS). Export the statement as ODS, XLSX or CSV.",
    );
  throw new SpreadsheetError(
    "This zip file is not an XLSX or ODS spreadsheet. Upload the statement as CSV, TSV, XLSX or ODS, or in your bank's own format (OFX, CAMT, MT940, QIF).",
  );
}

// --- XLSX ---

/** Built-in number formats that are dates or times (ECMA-376 Part 1, 18.8.30, and the CJK ones). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);
const BUILTIN_TIME_ONLY = new Set([18, 19, 20, 21, 45, 46, 47]);

type TDateKind = "date" | "datetime" | "time" | null;

/** Whether a number format code shows a date, a date and time, a time, or no date at all. */
export function dateKindOfFormat(code: string): TDateKind {
  // Only the first section (positive numbers) decides; quoted text, escapes, padding, fills and
  // brackets (colours, conditions, locales) are not date parts. [h], [mm], [ss] are elapsed time.
  const section = code.split(";")[0] ?? "";
  const elapsed = /\[(h+|m+|s+)\]/i.test(section);
  const bare = section
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/[_*]./g, "")
    .replace(/\[[^\]]*\]/g, "");
  if (/general/i.test(bare)) return null;
  const day = /[dy]/i.test(bare) || (/m/i.test(bare) && !/[hs]/i.test(bare));
  const time = elapsed || /[hs]/i.test(bare);
  if (day) return time ? "datetime" : "date";
  return time ? "time" : null;
}

function dirOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
}

/** A relationship target resolved against the part that names it ("/xl/x.xml", "worksheets/s.xml", "../x.xml"). */
function resolvePart(base: string, target: string): string {
  const joined = target.startsWith("/") ? target.slice(1) : dirOf(base) + target;
  const parts: string[] = [];
  for (const piece of joined.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}

/** Id → target of a part's relationships, with their type's last path segment. */
function relationshipsOf(zip: Record<string, Uint8Array>, part: string): Array<{ id: string; type: string; target: string }> {
  const relsPath = `${dirOf(part)}_rels/${part.slice(dirOf(part).length)}.rels`;
  const bytes = zip[relsPath];
  if (!bytes) return [];
  const root = find(parseXml(bytes, "relationships"), "Relationships");
  return named(root ? childrenOf(root) : [], "Relationship").map((rel) => {
    const attrs = attrsOf(rel);
    return {
      id: attrs.Id ?? "",
      type: (attrs.Type ?? "").split("/").pop() ?? "",
      target: attrs.TargetMode === "External" ? "" : resolvePart(part, attrs.Target ?? ""),
    };
  });
}

/** "AB12" → its zero-based column (27), or -1. */
function columnOf(ref: string): number {
  const letters = /^\$?([A-Z]+)/i.exec(ref)?.[1];
  if (!letters) return -1;
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

/** OOXML's escape of characters XML cannot hold: _x000D_ is a carriage return, _x005F_ an underscore. */
function unescapeOoxml(text: string): string {
  return text.includes("_x")
    ? text.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}

/** A rich or plain string item (<si>, <is>): its runs' text, without phonetic guides. */
const STRING_SKIP = new Set(["rPh", "phoneticPr", "rPr"]);
function stringItemText(item: TNode): string {
  return unescapeOoxml(textOf(childrenOf(item), STRING_SKIP));
}

function readXlsx(bytes: Uint8Array): TWorkbook {
  const zip = unzip(bytes, (name) => name.endsWith(".xml") || name.endsWith(".rels"));
  // The package's relationships (_rels/.rels: the package itself is the part with the empty name).
  const workbookPath = relationshipsOf(zip, "").find((rel) => rel.type === "officeDocument")?.target || "xl/workbook.xml";
  const workbookBytes = zip[workbookPath];
  if (!workbookBytes) throw new SpreadsheetError("This zip file is not an XLSX spreadsheet (it has no workbook).");
  const workbook = find(parseXml(workbookBytes, "workbook"), "workbook");
  const workbookChildren = workbook ? childrenOf(workbook) : [];
  const date1904 = /^(1|true)$/i.test(attrsOf(find(workbookChildren, "workbookPr") ?? {}).date1904 ?? "");
  const rels = relationshipsOf(zip, workbookPath);
  const partOf = (type: string) => rels.find((rel) => rel.type === type)?.target;

  const sheetNodes = named(childrenOf(find(workbookChildren, "sheets") ?? {}), "sheet");
  const sheets = sheetNodes.map((node) => {
    const attrs = attrsOf(node);
    return {
      name: attrs.name ?? "",
      hidden: attrs.state === "hidden" || attrs.state === "veryHidden",
      part: rels.find((rel) => rel.id === attrs.id)?.target ?? "",
    };
  });
  if (sheets.length === 0) throw new SpreadsheetError("The spreadsheet has no sheets.");

  // Shared strings and styles are read once, when the first sheet is converted.
  let shared: string[] | undefined;
  let dateKinds: TDateKind[] | undefined;
  const sharedStrings = () => {
    if (shared) return shared;
    const path = partOf("sharedStrings") ?? "xl/sharedStrings.xml";
    const sst = zip[path] ? find(parseXml(zip[path], "shared strings"), "sst") : undefined;
    shared = named(sst ? childrenOf(sst) : [], "si").map(stringItemText);
    return shared;
  };
  const styleDateKinds = () => {
    if (dateKinds) return dateKinds;
    const path = partOf("styles") ?? "xl/styles.xml";
    const styleSheet = zip[path] ? find(parseXml(zip[path], "styles"), "styleSheet") : undefined;
    const children = styleSheet ? childrenOf(styleSheet) : [];
    const custom = new Map<number, string>();
    for (const fmt of named(childrenOf(find(children, "numFmts") ?? {}), "numFmt")) {
      const attrs = attrsOf(fmt);
      custom.set(Number(attrs.numFmtId), attrs.formatCode ?? "");
    }
    dateKinds = named(childrenOf(find(children, "cellXfs") ?? {}), "xf").map((xf) => {
      const id = Number(attrsOf(xf).numFmtId ?? 0);
      const code = custom.get(id);
      if (code !== undefined) return dateKindOfFormat(code);
      if (!BUILTIN_DATE_FORMATS.has(id)) return null;
      return BUILTIN_TIME_ONLY.has(id) ? "time" : id === 22 ? "datetime" : "date";
    });
    return dateKinds;
  };

  const toCsv = (sheetIndex: number) => {
    const sheet = sheets[sheetIndex];
    const part = sheet ? zip[sheet.part] : undefined;
    if (!sheet || !part) throw new SpreadsheetError(`The sheet "${sheet?.name ?? sheetIndex}" could not be found in the file.`);
    const worksheet = find(parseXml(part, `sheet "${sheet.name}"`), "worksheet");
    const sheetData = find(worksheet ? childrenOf(worksheet) : [], "sheetData");
    const rows: Array<Array<string | undefined>> = [];
    let nextRow = 0;
    for (const rowNode of named(sheetData ? childrenOf(sheetData) : [], "row")) {
      const rowNumber = Number(attrsOf(rowNode).r);
      const rowIndex = Number.isInteger(rowNumber) && rowNumber > 0 ? rowNumber - 1 : nextRow;
      nextRow = rowIndex + 1;
      if (rowIndex >= MAX_ROWS) break;
      const cells: Array<string | undefined> = [];
      let nextColumn = 0;
      for (const cell of named(childrenOf(rowNode), "c")) {
        const attrs = attrsOf(cell);
        const fromRef = attrs.r ? columnOf(attrs.r) : -1;
        const column = fromRef >= 0 ? fromRef : nextColumn;
        nextColumn = column + 1;
        if (column >= MAX_COLUMNS) continue;
        cells[column] = xlsxCellValue(cell, attrs, sharedStrings, styleDateKinds, date1904);
      }
      rows[rowIndex] = cells;
    }
    return toCsvText(Array.from(rows, (row) => row ?? []));
  };

  const visible = sheets.findIndex((sheet) => !sheet.hidden);
  return {
    kind: "xlsx",
    sheets: sheets.map(({ name, hidden }) => ({ name, hidden })),
    defaultSheet: Math.max(0, visible),
    toCsv,
  };
}

function xlsxCellValue(
  cell: TNode,
  attrs: Record<string, string>,
  sharedStrings: () => string[],
  styleDateKinds: () => TDateKind[],
  date1904: boolean,
): string | undefined {
  const children = childrenOf(cell);
  const type = attrs.t ?? "n";
  if (type === "inlineStr") {
    const inline = find(children, "is");
    return inline ? stringItemText(inline) : undefined;
  }
  // The cached result of a formula, or the value itself; <f> (the formula) is never read.
  const valueNode = find(children, "v");
  if (!valueNode) return undefined;
  const raw = textOf(childrenOf(valueNode));
  switch (type) {
    case "s":
      return sharedStrings()[Number(raw)] ?? "";
    case "str":
      return unescapeOoxml(raw);
    case "b":
      return raw.trim() === "1" || /^true$/i.test(raw.trim()) ? "TRUE" : "FALSE";
    case "e":
      return raw.trim();
    case "d":
      return isoDateValue(raw);
    default: {
      const style = attrs.s === undefined ? 0 : Number(attrs.s);
      const kind = styleDateKinds()[style] ?? null;
      const value = Number(raw);
      if (kind && raw.trim() !== "" && Number.isFinite(value)) {
        if (kind === "time") return timeOfFraction(value - Math.floor(value));
        return dateOfSerial(value, date1904, kind === "datetime");
      }
      return plainNumber(raw);
    }
  }
}

// --- ODS ---

/** Elements inside a cell that are not its text. */
const ODS_SKIP = new Set(["office:annotation"]);

/** The text of a cell's paragraphs: <text:s text:c>, <text:tab>, <text:line-break> as the characters they stand for. */
function odsText(nodes: TNode[]): string {
  let text = "";
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "#text") text += String(node["#text"]);
    else if (tag === "text:s") text += " ".repeat(Math.max(1, Math.min(1000, Number(attrsOf(node)["text:c"] ?? 1) || 1)));
    else if (tag === "text:tab") text += "\t";
    else if (tag === "text:line-break") text += "\n";
    else if (tag && !ODS_SKIP.has(tag)) text += odsText(childrenOf(node));
  }
  return text;
}

function odsCellValue(cell: TNode): string | undefined {
  const attrs = attrsOf(cell);
  switch (attrs["office:value-type"]) {
    case "float":
    case "percentage":
    case "currency":
      return attrs["office:value"] === undefined ? undefined : plainNumber(attrs["office:value"]);
    case "date":
      return attrs["office:date-value"] === undefined ? undefined : isoDateValue(attrs["office:date-value"]);
    case "time":
      return attrs["office:time-value"] === undefined ? undefined : timeOfDuration(attrs["office:time-value"]);
    case "boolean":
      return attrs["office:boolean-value"] === undefined
        ? undefined
        : /^true$/i.test(attrs["office:boolean-value"])
          ? "TRUE"
          : "FALSE";
    default: {
      // A string formula's result may be held in string-value; an error (calcext:value-type
      // "error", no office type) has an empty one and shows its code in the paragraph.
      if (attrs["office:string-value"]) return attrs["office:string-value"];
      const paragraphs = named(childrenOf(cell), "text:p");
      return paragraphs.length ? paragraphs.map((p) => odsText(childrenOf(p))).join("\n") : undefined;
    }
  }
}

/** The rows of a table, through its row groups and header rows. */
function odsRows(nodes: TNode[], into: TNode[]): TNode[] {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "table:table-row") into.push(node);
    else if (tag === "table:table-header-rows" || tag === "table:table-rows" || tag === "table:table-row-group")
      odsRows(childrenOf(node), into);
  }
  return into;
}

function readOds(bytes: Uint8Array): TWorkbook {
  const zip = unzip(bytes, (name) => name === "content.xml" || name === "styles.xml");
  const content = zip["content.xml"];
  if (!content) throw new SpreadsheetError("The ODS file has no content.");
  const document = parseXml(content, "content", odsParser);
  const spreadsheet = find(document, "office:document-content", "office:body", "office:spreadsheet");
  const tables = named(spreadsheet ? childrenOf(spreadsheet) : [], "table:table");
  if (tables.length === 0) throw new SpreadsheetError("The spreadsheet has no sheets.");
  // Hidden sheets are hidden by their table style's table:display="false" (in the same content.xml).
  const hiddenStyles = new Set(
    named(childrenOf(find(document, "office:document-content", "office:automatic-styles") ?? {}), "style:style")
      .filter((style) => named(childrenOf(style), "style:table-properties").some((p) => attrsOf(p)["table:display"] === "false"))
      .map((style) => attrsOf(style)["style:name"]),
  );
  const sheets = tables.map((table) => ({
    name: attrsOf(table)["table:name"] ?? "",
    hidden: hiddenStyles.has(attrsOf(table)["table:style-name"] ?? ""),
  }));

  const toCsv = (sheetIndex: number) => {
    const table = tables[sheetIndex];
    if (!table) throw new SpreadsheetError(`The sheet ${sheetIndex + 1} could not be found in the file.`);
    const rows: Array<Array<string | undefined>> = [];
    for (const row of odsRows(childrenOf(table), [])) {
      const cells: Array<string | undefined> = [];
      let column = 0;
      for (const cell of childrenOf(row)) {
        const tag = tagOf(cell);
        if (tag !== "table:table-cell" && tag !== "table:covered-table-cell") continue;
        const repeat = Math.max(1, Number(attrsOf(cell)["table:number-columns-repeated"] ?? 1) || 1);
        const value = tag === "table:table-cell" ? odsCellValue(cell) : undefined;
        // Empty cells repeated to the sheet's edge are only a column count.
        if (value !== undefined && value !== "")
          for (let i = 0; i < repeat && column + i < MAX_COLUMNS; i++) cells[column + i] = value;
        column += repeat;
      }
      const repeat = Math.max(1, Number(attrsOf(row)["table:number-rows-repeated"] ?? 1) || 1);
      const filled = cells.some((cell) => cell !== undefined);
      // Empty rows repeated to the sheet's end (a million of them) are left out without counting.
      if (filled) for (let i = 0; i < repeat && rows.length < MAX_ROWS; i++) rows.push(cells);
    }
    return toCsvText(rows);
  };

  const visible = sheets.findIndex((sheet) => !sheet.hidden);
  return { kind: "ods", sheets, defaultSheet: Math.max(0, visible), toCsv };
}
