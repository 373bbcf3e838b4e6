// What the statement parser thread does (statement-worker.ts runs these; statement-parser.ts
// sends them). Pure functions of the file's bytes: no database, no clock, so they run the same
// in the worker and, in unit tests, in the test's own thread.
import { AppError, type TErrorCode } from "../errors/app-error";
import { readStatement, type TDelimiter } from "./csv-reader";
import {
  decodeStatementOrRefuse,
  headerSignature,
  parseStatement,
  type TParsedStatement,
  type TParseOptions,
} from "./parse-statement";
import { detectBankFormat, parseBankStatement, readBankFile } from "./formats/read-bank-file";
import { assertLineLengths, STATEMENT_MAX_ROWS, statementTooLarge } from "./statement-limits";

/** The file's shape, read in one streaming pass that keeps no row: what the upload looks its saved mappings up by. */
export type TStatementInspection = { header: string[]; delimiter: TDelimiter; signature: string; rows: number };

export type TStatementTask =
  | { kind: "inspect"; bytes: Uint8Array; delimiter?: TDelimiter }
  /** The rows read with the first candidate whose mapping fits the header (a saved mapping whose column is gone gives way). */
  | { kind: "parse"; bytes: Uint8Array; candidates: TParseOptions[] };

export type TStatementTaskResult<T extends TStatementTask> = T extends { kind: "inspect" }
  ? TStatementInspection
  : { index: number; parsed: TParsedStatement };

/** An AppError as it crosses the thread boundary (a class does not survive structured cloning). */
export type TTaskError = { code: TErrorCode; message: string; details?: unknown };

/**
 * Refuses what no preview can come of (415 for a binary, 413 past a bound, 400 without a header)
 * before anything is kept per row: the line lengths on the bytes, then the rows and columns
 * counted as they stream through the reader.
 */
export function inspectStatement(bytes: Uint8Array, delimiter?: TDelimiter): TStatementInspection {
  assertLineLengths(bytes);
  const text = decodeStatementOrRefuse(bytes);
  const bank = detectBankFormat(text);
  if (bank) {
    // A bank statement: read whole here to count its rows (and refuse a malformed one with 400).
    // QIF names no currency: counted here with one of three decimals, which reads any amount a
    // currency of 0 to 3 decimals can hold (the parse checks them against the real currency).
    const file = readBankFile(text, bank, "BHD");
    const rows = file.statements.reduce((sum, s) => sum + s.entries.length, 0);
    if (rows > STATEMENT_MAX_ROWS) {
      throw statementTooLarge("rows", STATEMENT_MAX_ROWS, `The statement has more than ${STATEMENT_MAX_ROWS} transactions`);
    }
    return { header: [], delimiter: delimiter ?? ",", signature: `format:${bank}`, rows };
  }
  const shape = readStatement(text, { delimiter }, () => {});
  return { header: shape.header, delimiter: shape.delimiter, signature: headerSignature(shape.header), rows: shape.rows };
}

export function parseWithFirstFitting(
  bytes: Uint8Array,
  candidates: TParseOptions[],
): { index: number; parsed: TParsedStatement } {
  assertLineLengths(bytes);
  const text = decodeStatementOrRefuse(bytes);
  // A bank statement is read by its standard: the last candidate (the request's mapping, or the
  // preset's names) stands for the upload, its mapping unused.
  const bank = detectBankFormat(text);
  if (bank) return { index: candidates.length - 1, parsed: parseBankStatement(text, bank, candidates[candidates.length - 1]!) };
  for (const [index, options] of candidates.entries()) {
    try {
      return { index, parsed: parseStatement(text, options) };
    } catch (error) {
      const last = index === candidates.length - 1;
      if (last || !(error instanceof AppError) || error.code !== "validation_error") throw error;
    }
  }
  throw new Error("parseWithFirstFitting: no candidate");
}

export function runStatementTask(task: TStatementTask): TStatementInspection | { index: number; parsed: TParsedStatement } {
  return task.kind === "inspect"
    ? inspectStatement(task.bytes, task.delimiter)
    : parseWithFirstFitting(task.bytes, task.candidates);
}

export function toTaskError(error: unknown): TTaskError {
  if (error instanceof AppError) return { code: error.code, message: error.message, details: error.details };
  return { code: "internal_error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

export function fromTaskError(error: TTaskError): AppError {
  if (error.code === "internal_error") return new AppError("internal_error", undefined, { cause: new Error(error.message) });
  return new AppError(error.code, error.message, { details: error.details });
}
