// A statement's bytes → its rows, each normalized and with its external_id (pure: no database).
// Composes the core: sniff (415 for binaries) → decode → read (delimiter, header) → resolve the
// mapping at the header → guess the date and number formats the mapping leaves open from a
// sample of the rows (format-detection.ts) → normalize each row → number identical rows
// (external ids). The answer names the effective mapping (every column and format, explicit),
// so a client can show it, change one thing and send it back whole.
import { hash } from "node:crypto";
import { AppError } from "../errors/app-error";
import { createExternalIdAssigner } from "./external-id";
import { decodeStatement, sniffStatement } from "./file-sniffer";
import { readStatement } from "./csv-reader";
import {
  detectDateFormat,
  detectNumberFormat,
  DETECTION_SAMPLE_ROWS,
  guessColumns,
  type TDateGuess,
  type TNumberGuess,
} from "./format-detection";
import { normalizeRow, type TImportRow } from "./normalize-row";
import {
  FIELDS,
  headerKey,
  mergeSettings,
  resolveMapping,
  type TField,
  type TImportMapping,
  type TImportPreset,
  type TResolution,
} from "./presets";
import { rejectionOf } from "../ingest/item-checks";
import type { TBalanceCheck, TBankFormat } from "./formats/bank-statement";

export type TParsedRow =
  ({ row: number; external_id: string } & Omit<TImportRow, "status">) | { row: number; rejected: string; raw: string[] };

/** What was guessed for the formats the mapping left open (absent: the mapping named it). */
export type TFormatGuesses = { date?: TDateGuess; number?: TNumberGuess };

export type TParsedStatement = {
  rows: TParsedRow[];
  total_rows: number;
  skipped_transfers: number;
  unmapped_columns: string[];
  header: string[];
  /** The mapping the rows were read with: every setting and column explicit. */
  mapping: Required<Omit<TImportMapping, "thousands_separator">> & Pick<TImportMapping, "thousands_separator">;
  guesses: TFormatGuesses;
  /** What the file is (pinned-wave3 §3): a CSV or TSV, or a bank statement format. */
  format?: TStatementFormat;
  /** Bank statements with balances: opening + rows = closing per account, or how far off. */
  balance_check?: TBalanceCheck[];
};

export type TStatementFormat = "csv" | "tsv" | TBankFormat;

export type TParseOptions = {
  preset: TImportPreset;
  mapping?: TImportMapping;
  currencyDefault?: string;
  ownAccounts?: readonly string[];
  /** Rows dated after this day are rejected (the ingest path refuses future actual events). */
  latestDay?: string;
  /** The owner's today: a guessed date format that puts rows in the future loses. */
  today?: string;
  /** The bank account the upload names: the account of bank-statement rows whose file names none (QIF). */
  account?: string;
};

/** Refuses a non-text file with 415 unsupported_media_type, before anything is read or stored. */
export function decodeStatementOrRefuse(bytes: Uint8Array): string {
  const sniffed = sniffStatement(bytes);
  if (!sniffed.ok) {
    throw new AppError(
      "unsupported_media_type",
      `${sniffed.reason} Upload the statement as CSV or TSV text, or as OFX, CAMT.053/.052, MT940 or QIF.`,
    );
  }
  return decodeStatement(bytes, sniffed);
}

/**
 * A statement layout's identity: its column names (compared as headerKey does), in order. The
 * same bank's next export has the same signature, whatever its rows.
 */
export function headerSignature(header: readonly string[]): string {
  return hash("sha256", header.map(headerKey).join("\u001f"), "hex").slice(0, 32);
}

/** A day PostgreSQL's date type reads as written (four-digit year from 0001). */
const STORABLE_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A rejected row keeps its cells for the owner to see: at most this many, each cut to this length. */
const RAW_CELLS = 60;
const RAW_CELL_CHARS = 200;

/** Cells as the owner sees them next to a rejection (storable: no NUL, no lone surrogate). */
function rawCells(cells: readonly string[]): string[] {
  return cells.slice(0, RAW_CELLS).map((cell) => {
    const cut = cell.length > RAW_CELL_CHARS ? `${cell.slice(0, RAW_CELL_CHARS)}…` : cell;
    // NUL and lone surrogates: PostgreSQL's JSON cannot hold them.
    // eslint-disable-next-line no-control-regex
    return cut.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  });
}

/** Column positions → the mapping's column names (null: the field is not read). */
function columnNames(resolution: TResolution, header: readonly string[]): Record<TField, string | null> {
  const names = {} as Record<TField, string | null>;
  for (const field of FIELDS) {
    const index = resolution.mapping.columns[field];
    names[field] = index === undefined ? null : header[index]!;
  }
  return names;
}

/**
 * The mapping with its open formats guessed from the first rows: the date format when the
 * mapping names none, the number format when it names no decimal separator. The preset's
 * formats are the fallbacks (and win ties the rows cannot settle).
 */
function guessFormats(
  text: string,
  options: TParseOptions,
): { mapping: TParsedStatement["mapping"]; guesses: TFormatGuesses; header: string[] } {
  let given = options.mapping ?? {};
  const settings = mergeSettings(options.preset, given);
  const sample: string[][] = [];
  const shape = readStatement(text, { delimiter: settings.delimiter, limit: DETECTION_SAMPLE_ROWS }, (cells) => {
    sample.push(cells);
  });
  const { header } = shape;
  let resolution: TResolution;
  try {
    resolution = resolveMapping(options.preset, given, header);
  } catch (error) {
    // The preset's names find no column for a required field: read it off the cells, unless the
    // owner's mapping named (or removed) that field itself.
    const missing = missingFields(error).filter((field) => given.columns?.[field] === undefined);
    if (missing.length === 0) throw error;
    // The other amount shape first: a statement with Debit and Credit columns read by a
    // one-column preset (or the reverse) is that shape, never a guessed amount column (which
    // could be the balance).
    const other = otherShape(options.preset, given, header, settings.sign_convention);
    if (other) {
      given = other.mapping;
      resolution = other.resolution;
    } else {
      const taken = new Set<number>();
      header.forEach((name, index) => {
        const key = headerKey(name);
        for (const field of FIELDS)
          if (!missing.includes(field) && (options.preset.columns[field] ?? []).some((c) => headerKey(c) === key))
            taken.add(index);
      });
      const guessed = guessColumns(header, sample, missing, taken);
      if (Object.keys(guessed).length === 0) throw error;
      given = { ...given, columns: { ...given.columns, ...guessed } };
      try {
        resolution = resolveMapping(options.preset, given, header);
      } catch {
        throw error;
      }
    }
  }
  const { columns } = resolution.mapping;
  const at = (cells: readonly string[], index: number | undefined) => (index === undefined ? "" : (cells[index] ?? ""));
  const dates = sample.map((cells) => at(cells, columns.date));
  const amounts: string[] = [];
  for (const cells of sample) {
    for (const index of [columns.amount, columns.debit, columns.credit]) {
      const cell = at(cells, index).trim();
      if (cell !== "") amounts.push(cell);
    }
  }
  const guesses: TFormatGuesses = {};
  let { date_format, decimal_separator, thousands_separator } = settings;
  if (!given.date_format) {
    guesses.date = detectDateFormat(dates, { fallback: settings.date_format, today: options.today });
    date_format = guesses.date.date_format;
  }
  if (!given.decimal_separator) {
    guesses.number = detectNumberFormat(amounts, settings);
    decimal_separator = guesses.number.decimal_separator;
    if (given.thousands_separator === undefined) thousands_separator = guesses.number.thousands_separator;
    else if (thousands_separator === decimal_separator) thousands_separator = null;
  }
  return {
    header,
    guesses,
    mapping: {
      delimiter: shape.delimiter,
      date_format,
      decimal_separator,
      thousands_separator,
      sign_convention: resolution.mapping.sign_convention,
      columns: columnNames(resolution, header),
    },
  };
}

/** The mapping with the other amount shape, when the owner did not choose one and the preset's names find all its columns. */
function otherShape(
  preset: TImportPreset,
  given: TImportMapping,
  header: readonly string[],
  sign: TImportMapping["sign_convention"],
): { mapping: TImportMapping; resolution: TResolution } | undefined {
  if (given.sign_convention) return undefined;
  const mapping: TImportMapping = { ...given, sign_convention: sign === "debit_credit" ? "signed" : "debit_credit" };
  try {
    return { mapping, resolution: resolveMapping(preset, mapping, header) };
  } catch {
    return undefined;
  }
}

/** The fields a resolveMapping validation_error names (mapping.columns.<field>). */
function missingFields(error: unknown): TField[] {
  if (!(error instanceof AppError) || error.code !== "validation_error") return [];
  const issues = (error.details as { issues?: Array<{ path?: unknown }> } | undefined)?.issues ?? [];
  return issues
    .map((issue) => (typeof issue.path === "string" ? issue.path.replace(/^mapping\.columns\./, "") : ""))
    .filter((field): field is TField => (FIELDS as readonly string[]).includes(field));
}

export function parseStatement(source: Uint8Array | string, options: TParseOptions): TParsedStatement {
  const text = typeof source === "string" ? source : decodeStatementOrRefuse(source);
  const { mapping, guesses, header } = guessFormats(text, options);
  let resolution: TResolution | undefined;
  const assigner = createExternalIdAssigner();
  const rows: TParsedRow[] = [];
  let skipped = 0;
  const normalizeOptions = { currencyDefault: options.currencyDefault, ownAccounts: options.ownAccounts };
  const shape = readStatement(
    text,
    {
      delimiter: mapping.delimiter,
      onHeader: (header) => {
        resolution = resolveMapping(options.preset, mapping, header);
      },
    },
    (cells, row) => {
      // One row never fails the statement: whatever reading it throws, or a value the database
      // cannot store, is that row's rejection.
      let normalized: ReturnType<typeof normalizeRow>;
      try {
        normalized = normalizeRow(cells, resolution!.mapping, normalizeOptions);
      } catch (error) {
        rows.push({ row, rejected: rejectionOf(error, { step: "import.row", row }).message, raw: rawCells(cells) });
        return;
      }
      if (normalized.status === "skipped") {
        skipped++;
        return;
      }
      if (normalized.status === "rejected") {
        rows.push({ row, rejected: normalized.reject_reason, raw: rawCells(cells) });
        return;
      }
      if (!STORABLE_DAY.test(normalized.occurred_on) || normalized.occurred_on < "0001-01-01") {
        rows.push({ row, rejected: `date ${normalized.occurred_on} is out of range`, raw: rawCells(cells) });
        return;
      }
      if (options.latestDay && normalized.occurred_on > options.latestDay) {
        rows.push({ row, rejected: `date ${normalized.occurred_on} is in the future`, raw: rawCells(cells) });
        return;
      }
      const { status: _status, ...fields } = normalized;
      rows.push({ row, external_id: assigner.next(normalized).external_id, ...fields });
    },
  );
  return {
    rows,
    total_rows: shape.rows,
    skipped_transfers: skipped,
    unmapped_columns: resolution?.unmapped_columns ?? [],
    header,
    mapping,
    guesses,
    format: mapping.delimiter === "\t" ? "tsv" : "csv",
  };
}
