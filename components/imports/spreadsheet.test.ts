// The panel's spreadsheet → CSV converter (issue 35) on real-shaped files: XLSX and ODS that
// LibreOffice wrote (test/fixtures/spreadsheets/, made from statement.fods with
// `soffice --headless --convert-to xlsx|ods statement.fods`), and files written in Excel's and
// LibreOffice's shapes by test/helpers/spreadsheet-files.ts with the quirks those writers have.
// A cell becomes what it holds, never its display text.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { odsFile, serialOf, xlsxFile, type TFixtureCell, type TFixtureSheet } from "../../test/helpers/spreadsheet-files";
import { dateKindOfFormat, dateOfSerial, plainNumber, readWorkbook, SpreadsheetError } from "./spreadsheet";
import { convertedFileName, statementFileKind } from "./upload";

const FIXTURES = path.join(__dirname, "../../test/fixtures/spreadsheets");
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

/** The statement LibreOffice saved (dd.mm.yyyy dates, #,##0.00 amounts, a formula, a second sheet). */
const LIBREOFFICE_CSV = [
  "Date,Amount,Currency,Description,Counterparty",
  '2025-10-03,1234.56,EUR,"Invoice 1042, paid  ""in full""",Globex',
  '2025-10-15,-29,EUR,"=HYPERLINK(""x"")",Acme Cloud',
  "2025-11-01,1000000.1,EUR,Big sale,",
  "",
].join("\r\n");

describe("files LibreOffice wrote", () => {
  for (const name of ["statement.xlsx", "statement.ods"]) {
    it(`${name}: dates as ISO days, amounts without separators, a formula's result, both sheets named`, () => {
      const workbook = readWorkbook(fixture(name));
      expect(workbook.kind).toBe(name.slice(-4) === "xlsx" ? "xlsx" : "ods");
      expect(workbook.sheets).toEqual([
        { name: "Statement", hidden: false },
        { name: "Other", hidden: false },
      ]);
      expect(workbook.defaultSheet).toBe(0);
      expect(workbook.toCsv(0)).toEqual({ csv: LIBREOFFICE_CSV, rows: 4 });
      expect(workbook.toCsv(1)).toEqual({ csv: "x\r\n", rows: 1 });
    });
  }
});

/** One statement in every kind of cell a bank's or an accountant's spreadsheet holds. */
const HEADER: TFixtureCell[] = [
  { text: "Date" },
  { text: "Amount" },
  { text: "Currency" },
  { text: "Description" },
  { text: "Note" },
];
const STATEMENT: TFixtureSheet = {
  name: "Giro",
  rows: [
    HEADER,
    [{ date: "2025-01-31" }, { number: 1234567.89, format: "thousands" }, { text: "EUR" }, { text: "Salary, January" }, null],
    [
      { date: "2025-02-01" },
      { number: "-29", format: "currency" },
      { text: "EUR" },
      { text: "Acme Cloud", rich: true },
      { bool: true },
    ],
    [
      { date: "2025-02-28", time: "13:45:00" },
      { formula: "0.1+0.2", cached: 0.30000000000000004 },
      { text: "EUR", inline: true },
      { text: 'Line one\nsaid "two"' },
      { error: "#N/A" },
    ],
    [
      { date: "2024-02-29" },
      { number: "1.5E-3" },
      { text: "EUR" },
      { formula: 'CONCAT("=", "1+1")', cached: "=1+1", kind: "text" },
      null,
    ],
    [],
    [
      { date: "1900-01-01" },
      { formula: "SUM(B2:B3)", cached: null },
      { text: "JPY" },
      { text: "  spaced   out  " },
      { number: 0.05, format: "percent" },
    ],
  ],
};
const STATEMENT_CSV = [
  "Date,Amount,Currency,Description,Note",
  '2025-01-31,1234567.89,EUR,"Salary, January",',
  "2025-02-01,-29,EUR,Acme Cloud,TRUE",
  '2025-02-28T13:45:00,0.3,EUR,"Line one\nsaid ""two""",#N/A',
  "2024-02-29,0.0015,EUR,=1+1,",
  "1900-01-01,,JPY,  spaced   out  ,0.05",
  "",
].join("\r\n");

describe("XLSX in Excel's shape", () => {
  it("reads shared and rich strings, date serials, formatted numbers, formulas' results, booleans and errors", () => {
    const workbook = readWorkbook(xlsxFile([STATEMENT]));
    expect(workbook.kind).toBe("xlsx");
    expect(workbook.toCsv(0)).toEqual({ csv: STATEMENT_CSV, rows: 6 });
  });

  it("reads the same with the 1904 date system, the x: prefix, cells without r and absolute targets", () => {
    const options = [{ date1904: true }, { prefix: true }, { noRefs: true }, { absoluteTargets: true }];
    for (const option of options) {
      // Cells without r are in order, so the empty cells of the fixture must be written too.
      const sheet = option.noRefs
        ? { ...STATEMENT, rows: STATEMENT.rows.map((row) => row.map((cell) => cell ?? { text: "" })) }
        : STATEMENT;
      expect(readWorkbook(xlsxFile([sheet], option)).toCsv(0).csv, JSON.stringify(option)).toBe(STATEMENT_CSV);
    }
  });

  it("reads a custom date format as a date, whatever its locale and literal parts", () => {
    for (const dateFormat of ["dd/mm/yyyy", "[$-407]dd.mm.yyyy;@", 'd" de "mmmm" de "yyyy', "yyyy\\-mm\\-dd", "mmm-yy"]) {
      const sheet = { name: "S", rows: [[{ text: "Date" }], [{ date: "2025-03-09" }]] };
      expect(readWorkbook(xlsxFile([sheet], { dateFormat })).toCsv(0).csv, dateFormat).toBe("Date\r\n2025-03-09\r\n");
    }
  });

  it("lists every sheet, chooses the first visible one, and converts the one asked for", () => {
    const hidden = { name: "Lookup", hidden: true, rows: [[{ text: "code" }], [{ number: 7 }]] };
    const other = {
      name: "Savings",
      rows: [HEADER, [{ date: "2025-05-05" }, { number: 10 }, { text: "CHF" }, { text: "Interest" }]],
    };
    const workbook = readWorkbook(xlsxFile([hidden, STATEMENT, other]));
    expect(workbook.sheets).toEqual([
      { name: "Lookup", hidden: true },
      { name: "Giro", hidden: false },
      { name: "Savings", hidden: false },
    ]);
    expect(workbook.defaultSheet).toBe(1);
    expect(workbook.toCsv(1).csv).toBe(STATEMENT_CSV);
    expect(workbook.toCsv(2).csv).toBe("Date,Amount,Currency,Description,Note\r\n2025-05-05,10,CHF,Interest,\r\n");
    expect(workbook.toCsv(0).csv).toBe("code\r\n7\r\n");
  });
});

describe("ODS in LibreOffice's shape", () => {
  it("reads the same statement as its XLSX twin, through runs of spaces and a million repeated empty rows", () => {
    const workbook = readWorkbook(odsFile([STATEMENT]));
    expect(workbook.kind).toBe("ods");
    // ODS holds a formula without a result as no value, like XLSX; an error cell shows its text.
    expect(workbook.toCsv(0)).toEqual({ csv: STATEMENT_CSV, rows: 6 });
  });

  it("knows a hidden sheet", () => {
    const workbook = readWorkbook(odsFile([{ name: "Notes", hidden: true, rows: [[{ text: "n" }]] }, STATEMENT]));
    expect(workbook.sheets).toEqual([
      { name: "Notes", hidden: true },
      { name: "Giro", hidden: false },
    ]);
    expect(workbook.defaultSheet).toBe(1);
  });
});

describe("what is not a readable spreadsheet", () => {
  it("a damaged zip, another zip, another OpenDocument file, a workbook without sheets", () => {
    const damaged = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, ...new Array(64).fill(0)]);
    expect(() => readWorkbook(damaged)).toThrow(SpreadsheetError);
    expect(() => readWorkbook(damaged)).toThrow(/damaged/);
    const docx = zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "word/document.xml": strToU8("<document/>") });
    expect(() => readWorkbook(docx)).toThrow(/not an XLSX spreadsheet/);
    const odt = zipSync({ mimetype: strToU8("application/vnd.oasis.opendocument.text"), "content.xml": strToU8("<x/>") });
    expect(() => readWorkbook(odt)).toThrow(/not a spreadsheet/);
    const photos = zipSync({ "a.jpg": new Uint8Array([1, 2, 3]) });
    expect(() => readWorkbook(photos)).toThrow(/not an XLSX or ODS spreadsheet/);
  });

  it("the panel refuses XLS and PDF by their first bytes, and converts zips", () => {
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(statementFileKind(xls)).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/XLS.*Save it as XLSX, ODS or CSV/),
    });
    expect(statementFileKind(strToU8("%PDF-1.7\n"))).toMatchObject({ kind: "refused", message: expect.stringMatching(/PDF/) });
    expect(statementFileKind(xlsxFile([STATEMENT]).slice(0, 8))).toEqual({ kind: "spreadsheet" });
    expect(statementFileKind(strToU8("Date,Amount\n"))).toEqual({ kind: "text" });
    expect(convertedFileName("May.XLSX", null)).toBe("May.csv");
    expect(convertedFileName("May.ods", "Giro")).toBe("May - Giro.csv");
  });
});

describe("values", () => {
  it("numbers in plain decimal notation at 15 significant digits", () => {
    const cases: Array<[string, string]> = [
      ["1234567.89", "1234567.89"],
      ["-29", "-29"],
      ["0.30000000000000004", "0.3"],
      ["1.5E-3", "0.0015"],
      ["1E+21", "1000000000000000000000"],
      ["-0.000001", "-0.000001"],
      ["123456789012.345", "123456789012.345"],
      ["0", "0"],
      ["-0", "0"],
      ["29.990000000000002", "29.99"],
      ["not a number", "not a number"],
    ];
    for (const [raw, plain] of cases) expect(plainNumber(raw), raw).toBe(plain);
  });

  it("serial days in both date systems, Lotus's phantom 29 February included", () => {
    expect(dateOfSerial(1, false, false)).toBe("1900-01-01");
    expect(dateOfSerial(59, false, false)).toBe("1900-02-28");
    expect(dateOfSerial(60, false, false)).toBe("1900-02-29");
    expect(dateOfSerial(61, false, false)).toBe("1900-03-01");
    expect(dateOfSerial(45_658, false, false)).toBe("2025-01-01");
    expect(dateOfSerial(45_658.75, false, true)).toBe("2025-01-01T18:00:00");
    expect(dateOfSerial(45_658.75, false, false)).toBe("2025-01-01");
    expect(dateOfSerial(45_658.999_999_99, false, true)).toBe("2025-01-02");
    expect(dateOfSerial(0, true, false)).toBe("1904-01-01");
    expect(dateOfSerial(serialOf("2025-01-01", true), true, false)).toBe("2025-01-01");
    for (const day of ["1900-01-01", "1900-02-28", "1900-03-01", "1999-12-31", "2024-02-29", "2099-12-31"])
      expect(dateOfSerial(serialOf(day), false, false)).toBe(day);
  });

  it("a number format is a date by its date parts, not by its literal text, colours or locale", () => {
    const cases: Array<[string, ReturnType<typeof dateKindOfFormat>]> = [
      ["General", null],
      ["#,##0.00", null],
      ['_-* #,##0.00\\ "€"_-;\\-* #,##0.00\\ "€"_-;_-* "-"??\\ "€"_-;_-@_-', null],
      ['#,##0.00 "days"', null],
      ["[Red]#,##0.00;[Blue]-#,##0.00", null],
      ["0.00E+00", null],
      ["dd/mm/yyyy", "date"],
      ["[$-409]m/d/yy\\ h:mm\\ AM/PM;@", "datetime"],
      ["yyyy-mm-dd hh:mm:ss", "datetime"],
      ["h:mm", "time"],
      ["[h]:mm:ss", "time"],
      ["mm:ss", "time"],
      ["mmm-yy", "date"],
    ];
    for (const [code, kind] of cases) expect(dateKindOfFormat(code), code).toBe(kind);
  });
});
