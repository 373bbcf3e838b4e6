// A statement's bytes → its rows, each normalized and with its external_id (pure: no database).
// Composes the core: sniff (415 for binaries) → decode → read (delimiter, header) → resolve the
// mapping at the header → normalize each row → number identical rows (external ids).
import { AppError } from "../errors/app-error";
import { createExternalIdAssigner } from "./external-id";
import { decodeStatement, sniffStatement } from "./file-sniffer";
import { readStatement } from "./csv-reader";
import { normalizeRow, type TImportRow } from "./normalize-row";
import { mergeSettings, resolveMapping, type TImportMapping, type TImportPreset, type TResolution } from "./presets";
import { rejectionOf } from "../ingest/item-checks";

export type TParsedRow = ({ row: number; external_id: string } & Omit<TImportRow, "status">) | { row: number; rejected: string };

export type TParsedStatement = {
  rows: TParsedRow[];
  total_rows: number;
  skipped_transfers: number;
  unmapped_columns: string[];
};

export type TParseOptions = {
  preset: TImportPreset;
  mapping?: TImportMapping;
  currencyDefault?: string;
  ownAccounts?: readonly string[];
  /** Rows dated after this day are rejected (the ingest path refuses future actual events). */
  latestDay?: string;
};

/** Refuses a non-text file with 415 unsupported_media_type, before anything is read or stored. */
export function decodeStatementOrRefuse(bytes: Uint8Array): string {
  const sniffed = sniffStatement(bytes);
  if (!sniffed.ok) {
    throw new AppError("unsupported_media_type", `${sniffed.reason} Upload the statement as CSV or TSV text.`);
  }
  return decodeStatement(bytes, sniffed);
}

/** A day PostgreSQL's date type reads as written (four-digit year from 0001). */
const STORABLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseStatement(bytes: Uint8Array, options: TParseOptions): TParsedStatement {
  const text = decodeStatementOrRefuse(bytes);
  const settings = mergeSettings(options.preset, options.mapping);
  let resolution: TResolution | undefined;
  const assigner = createExternalIdAssigner();
  const rows: TParsedRow[] = [];
  let skipped = 0;
  const normalizeOptions = { currencyDefault: options.currencyDefault, ownAccounts: options.ownAccounts };
  const shape = readStatement(
    text,
    {
      delimiter: settings.delimiter,
      onHeader: (header) => {
        resolution = resolveMapping(options.preset, options.mapping, header);
      },
    },
    (cells, row) => {
      // One row never fails the statement: whatever reading it throws, or a value the database
      // cannot store, is that row's rejection.
      let normalized: ReturnType<typeof normalizeRow>;
      try {
        normalized = normalizeRow(cells, resolution!.mapping, normalizeOptions);
      } catch (error) {
        rows.push({ row, rejected: rejectionOf(error, { step: "import.row", row }).message });
        return;
      }
      if (normalized.status === "skipped") {
        skipped++;
        return;
      }
      if (normalized.status === "rejected") {
        rows.push({ row, rejected: normalized.reject_reason });
        return;
      }
      if (!STORABLE_DAY.test(normalized.occurred_on) || normalized.occurred_on < "0001-01-01") {
        rows.push({ row, rejected: `date ${normalized.occurred_on} is out of range` });
        return;
      }
      if (options.latestDay && normalized.occurred_on > options.latestDay) {
        rows.push({ row, rejected: `date ${normalized.occurred_on} is in the future` });
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
  };
}
