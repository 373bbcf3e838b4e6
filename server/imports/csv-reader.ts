// Streams the rows of a decoded statement (text from `decodeStatement`) to a callback, one
// row at a time: papaparse's `step` hands over each row's array and nothing keeps it, so a
// 10 MB statement is held once as text and never as a second list of rows.
//
// What the reader accepts (RFC 4180 plus what bank exports actually do):
//   - a delimiter among , ; TAB |, given or detected (below); an Excel `sep=;` first line
//     names it and is skipped;
//   - quoted fields with embedded delimiters, line breaks and doubled quotes ("");
//   - CRLF, LF or CR line endings, even mixed in one file (all become LF first, inside quoted
//     fields too);
//   - a header row: the first non-blank row; its names are trimmed;
//   - blank lines, and lines of delimiters only, anywhere: skipped, not counted;
//   - a trailing delimiter on the header and/or the rows: the empty cells past the header's
//     width are dropped. Non-empty cells past it are kept: the row is misaligned and the
//     normalizer rejects it rather than guessing.
// Malformed quoting (a quoted field never closed, or text after a closing quote: `"x"y`)
// makes papaparse swallow the following lines into one field, so no row count or amount
// after it can be trusted: that is a file error (thrown), never a row to import. A quote
// inside an unquoted field (`5" screen`) is an ordinary character.
//
// Detection: the first 20 rows are parsed with each candidate; the winner has the most rows
// as wide as its header (a trailing empty cell allowed), then the widest header (≥ 2
// columns), then the order , ; TAB |. A decimal comma therefore never wins over `;`: the
// header row has no decimal commas, so "," gives it one column.
import Papa from "papaparse";
import { AppError } from "../errors/app-error";
import { STATEMENT_MAX_COLUMNS, STATEMENT_MAX_ROWS, statementTooLarge } from "./statement-limits";

export const DELIMITERS = [",", ";", "\t", "|"] as const;
export type TDelimiter = (typeof DELIMITERS)[number];

export type TReadOptions = {
  delimiter?: TDelimiter;
  /** Called once with the header before the first row (resolve the mapping here; a throw stops the read). */
  onHeader?: (header: string[], delimiter: TDelimiter) => void;
  /** Stop after this many data rows (a sample for the format guesses); `rows` then counts those read. */
  limit?: number;
};

/** What the whole read found. `rows` counts the data rows passed to `onRow`. */
export type TStatementShape = { header: string[]; delimiter: TDelimiter; rows: number };

/**
 * Called once per data row. `row` is the 1-based position among data rows (the header and
 * skipped blank lines not counted), the number the preview shows. `cells` belongs to the
 * handler (the reader does not keep it).
 */
export type TRowHandler = (cells: string[], row: number) => void;

const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_ROWS = 20;
const SEP_LINE = /^"?sep=(.)"?[ \t]*(?:\n|$)/i;

function isDelimiter(value: string): value is TDelimiter {
  return (DELIMITERS as readonly string[]).includes(value);
}

/** The header's width: its cells less one trailing empty cell (a trailing delimiter). */
function headerWidth(header: readonly string[]): number {
  return header.length > 1 && header[header.length - 1]!.trim() === "" ? header.length - 1 : header.length;
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell !== "" && cell.trim() !== "") return false;
  return true;
}

function fits(row: readonly string[], width: number): boolean {
  return row.length === width || (row.length === width + 1 && row[width]!.trim() === "");
}

/** Picks the delimiter of a LF-only text (rule at the top of this file). */
export function detectDelimiter(text: string): TDelimiter {
  const cut = text.length > SAMPLE_CHARS;
  const sample = cut ? text.slice(0, SAMPLE_CHARS) : text;
  let best: { delimiter: TDelimiter; fitting: number; width: number } | undefined;
  for (const delimiter of DELIMITERS) {
    const rows = Papa.parse<string[]>(sample, { delimiter, newline: "\n", skipEmptyLines: "greedy", preview: SAMPLE_ROWS }).data;
    // The last row of a cut sample may be cut too.
    if (cut && rows.length > 2) rows.pop();
    const header = rows[0];
    if (!header) continue;
    const width = headerWidth(header);
    if (width < 2) continue;
    const fitting = rows.slice(1).filter((row) => fits(row, width)).length;
    if (!best || fitting > best.fitting || (fitting === best.fitting && width > best.width)) best = { delimiter, fitting, width };
  }
  return best?.delimiter ?? ",";
}

/**
 * Reads a statement: detects the delimiter unless given, takes the header, then calls
 * `onRow` for every data row in order. Throws validation_error when there is no header row
 * or the quoting is malformed.
 */
export function readStatement(text: string, options: TReadOptions, onRow: TRowHandler): TStatementShape {
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.includes("\r")) body = body.replace(/\r\n?/g, "\n");

  let delimiter = options.delimiter;
  const sep = SEP_LINE.exec(body);
  if (sep && isDelimiter(sep[1]!)) {
    delimiter ??= sep[1];
    body = body.slice(sep[0].length);
  }
  delimiter ??= detectDelimiter(body);

  let header: string[] | undefined;
  let width = 0;
  let rows = 0;
  Papa.parse<string[]>(body, {
    delimiter,
    newline: "\n",
    quoteChar: '"',
    // Papa's "greedy" joins every row to test it; empty lines are skipped by Papa, lines of
    // delimiters and blanks here.
    skipEmptyLines: true,
    step: (result, parser) => {
      if (header && options.limit !== undefined && rows >= options.limit) {
        parser.abort();
        return;
      }
      const cells = result.data;
      // The bounds hold whatever the caller does with the rows (statement-limits.ts).
      if (cells.length > STATEMENT_MAX_COLUMNS) {
        throw statementTooLarge(
          "columns",
          STATEMENT_MAX_COLUMNS,
          `${header ? `Row ${rows + 1}` : "The header row"} has ${cells.length} cells, more than ${STATEMENT_MAX_COLUMNS}`,
        );
      }
      if (isBlank(cells)) return;
      const error = result.errors[0];
      if (error) {
        const what = error.code === "MissingQuotes" ? "a quoted field is never closed" : "text follows a closing quote";
        const where = header ? `row ${rows + 1}` : "the header row";
        throw AppError.invalidField("file", `${where}: malformed quotes, ${what} (a stray " character?)`);
      }
      if (!header) {
        header = cells.map((cell) => cell.trim());
        width = headerWidth(header);
        header.length = width;
        options.onHeader?.(header, delimiter);
        return;
      }
      // Drop the empty cells a trailing delimiter leaves past the header's width.
      let end = cells.length;
      while (end > width && cells[end - 1]!.trim() === "") end--;
      if (end < cells.length) cells.length = end;
      if (rows === STATEMENT_MAX_ROWS) {
        throw statementTooLarge("rows", STATEMENT_MAX_ROWS, `The statement has more than ${STATEMENT_MAX_ROWS} rows`);
      }
      rows++;
      onRow(cells, rows);
    },
  });
  if (!header) throw AppError.invalidField("file", "has no header row (the file is empty)");
  return { header, delimiter, rows };
}
