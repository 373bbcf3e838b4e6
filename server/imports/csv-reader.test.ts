import { describe, expect, it } from "vitest";
import { detectDelimiter, readStatement, type TReadOptions } from "./csv-reader";

function read(text: string, options: TReadOptions = {}) {
  const rows: { row: number; cells: string[] }[] = [];
  const shape = readStatement(text, options, (cells, row) => rows.push({ row, cells }));
  return { ...shape, rows, count: shape.rows };
}

describe("readStatement", () => {
  it("detects ; with decimal commas (a comma never wins over the real delimiter)", () => {
    const result = read("Date;Amount;Purpose\n01.02.2024;-12,50;Shop, Berlin\n02.02.2024;1.234,56;Salary\n");
    expect(result.delimiter).toBe(";");
    expect(result.header).toEqual(["Date", "Amount", "Purpose"]);
    expect(result.rows.map((r) => r.cells)).toEqual([
      ["01.02.2024", "-12,50", "Shop, Berlin"],
      ["02.02.2024", "1.234,56", "Salary"],
    ]);
  });

  it.each([
    [",", "a,b,c\n1,2,3\n"],
    [";", "a;b;c\n1;2;3\n"],
    ["\t", "a\tb\tc\n1\t2,5\t3\n"],
    ["|", "a|b|c\n1|2|3\n"],
  ])("detects %j", (delimiter, text) => {
    expect(read(text).delimiter).toBe(delimiter);
    expect(detectDelimiter(text)).toBe(delimiter);
  });

  it("uses a given delimiter even when another would fit", () => {
    const result = read("a;b,c\n1;2,3\n", { delimiter: "," });
    expect(result.header).toEqual(["a;b", "c"]);
  });

  it("reads quoted fields with delimiters, line breaks and doubled quotes", () => {
    const result = read(
      'Date,Description,Amount\n2024-01-01,"Rent, flat 3\nJanuary","-800.00"\n2024-01-02,"The ""best"" shop",-5\n',
    );
    expect(result.rows).toEqual([
      { row: 1, cells: ["2024-01-01", "Rent, flat 3\nJanuary", "-800.00"] },
      { row: 2, cells: ["2024-01-02", 'The "best" shop', "-5"] },
    ]);
  });

  it.each([
    ["CRLF", "a,b\r\n1,2\r\n3,4\r\n"],
    ["CR", "a,b\r1,2\r3,4\r"],
    ["mixed", "a,b\r\n1,2\n3,4\r"],
  ])("reads %s line endings", (_name, text) => {
    expect(read(text).rows.map((r) => r.cells)).toEqual([
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  it("turns CRLF inside quoted fields into LF", () => {
    expect(read('a,b\r\n1,"x\r\ny"\r\n').rows[0]!.cells).toEqual(["1", "x\ny"]);
  });

  it("skips blank lines and delimiter-only lines, counting data rows only", () => {
    const result = read("\n\na;b\n\n1;2\n;;\n  \n3;4\n\n");
    expect(result.header).toEqual(["a", "b"]);
    expect(result.rows).toEqual([
      { row: 1, cells: ["1", "2"] },
      { row: 2, cells: ["3", "4"] },
    ]);
    expect(result.count).toBe(2);
  });

  it("tolerates a trailing delimiter on the header and the rows", () => {
    const result = read("Date;Amount;\n01.01.2024;5,00;\n02.01.2024;6,00\n");
    expect(result.header).toEqual(["Date", "Amount"]);
    expect(result.rows.map((r) => r.cells)).toEqual([
      ["01.01.2024", "5,00"],
      ["02.01.2024", "6,00"],
    ]);
  });

  it("keeps non-empty cells past the header (the normalizer rejects the row)", () => {
    expect(read("a,b\n1,2,3\n").rows[0]!.cells).toEqual(["1", "2", "3"]);
  });

  it("trims header names and drops a BOM left in the text", () => {
    expect(read("\uFEFF Date , Amount \n1,2\n").header).toEqual(["Date", "Amount"]);
  });

  it("honours an Excel sep= line", () => {
    const result = read("sep=;\nDate;Amount\n1;2\n");
    expect(result.delimiter).toBe(";");
    expect(result.header).toEqual(["Date", "Amount"]);
    expect(result.count).toBe(1);
  });

  it("hands the header over before the first row", () => {
    const events: string[] = [];
    readStatement(
      "a,b\n1,2\n",
      { onHeader: (header, delimiter) => events.push(`header ${header.join("|")} ${delimiter}`) },
      (cells) => events.push(`row ${cells.join("|")}`),
    );
    expect(events).toEqual(["header a|b ,", "row 1|2"]);
  });

  it("refuses an empty file and malformed quoting (which would swallow rows)", () => {
    expect(() => read("")).toThrow(/no header row/);
    expect(() => read("\n \n")).toThrow(/no header row/);
    expect(() => read('a,b\n1,"never closed\n2,3\n')).toThrow(/row 1: malformed quotes, a quoted field is never closed/);
    expect(() => read('a,b\n1,2\n3,"x"y\n4,5\n')).toThrow(/row 2: malformed quotes, text follows a closing quote/);
  });

  it("keeps a quote inside an unquoted field", () => {
    expect(read('a,b\n1,5" screen\n').rows[0]!.cells).toEqual(["1", '5" screen']);
  });
});
