// The deterministic external_id of an imported row (contract: Import rules 6): re-importing
// the same statement, or an overlapping one, gives the same ids, so the ingest path dedupes.
//
//   external_id = "imp_" + the first 32 hex digits of SHA-256(key, occurrence)
//   key         = occurred_on, amount_minor, currency, description, counterparty,
//                 counterparty_account, reference — texts folded (Unicode NFC, blanks
//                 collapsed, lower case) so a re-export that changes only spacing or case
//                 still matches
//   occurrence  = 1 for the first row with this key in the statement, 2 for the second…
//
// Two identical charges on one day are indistinguishable by their columns; the occurrence
// number keeps them apart (two ids), and because identical rows are interchangeable, any
// export order of them gives the same pair of ids. Assumed: a statement holds whole days. One
// cut in the middle of a day that holds only the second of two identical charges numbers it
// 1, and it dedupes against the first. Category is not in the key: it is the bank's label,
// which a later export may change.
// 128 bits of the hash keep collisions out of reach for any number of statements.
import { hash } from "node:crypto";
import type { TImportRow } from "./normalize-row";

export const IMPORT_ID_PREFIX = "imp_";
const HASH_HEX_CHARS = 32;

export type TKeyedRow = Pick<
  TImportRow,
  "occurred_on" | "amount_minor" | "currency" | "description" | "counterparty" | "counterparty_account" | "reference"
>;

const NON_ASCII = /[\u0080-\uffff]/;
/** Blanks other than single inner spaces. */
const LOOSE_BLANKS = /\s\s|[^\S ]|^ | $/;

function fold(text: string | undefined): string {
  if (!text) return "";
  // Tests before the rewrites: most statement text is ASCII and already tidy.
  const nfc = NON_ASCII.test(text) ? text.normalize("NFC") : text;
  return (LOOSE_BLANKS.test(nfc) ? nfc.replace(/\s+/g, " ").trim() : nfc).toLowerCase();
}

/** The identity of a row without its occurrence: equal keys are "identical rows". */
export function importKey(row: TKeyedRow): string {
  return JSON.stringify([
    row.occurred_on,
    row.amount_minor,
    row.currency.toUpperCase(),
    fold(row.description),
    fold(row.counterparty),
    fold(row.counterparty_account).replace(/[\s-]/g, ""),
    fold(row.reference),
  ]);
}

function idOfKey(key: string, occurrence: number): string {
  if (!Number.isSafeInteger(occurrence) || occurrence < 1) throw new RangeError(`occurrence must be 1 or more: ${occurrence}`);
  // crypto.hash: the one-shot form, several times faster than createHash per row.
  return `${IMPORT_ID_PREFIX}${hash("sha256", `${key}\u0000${occurrence}`, "hex").slice(0, HASH_HEX_CHARS)}`;
}

/** The external_id of a row that is the `occurrence`-th (1-based) with its key in its statement. */
export function importExternalId(row: TKeyedRow, occurrence: number): string {
  return idOfKey(importKey(row), occurrence);
}

/**
 * Numbers identical rows over one statement, in file order: call `next` with every imported
 * ("ok") row and it answers that row's external_id. Keeps one counter per distinct key.
 */
export function createExternalIdAssigner(): { next(row: TKeyedRow): { external_id: string; occurrence: number } } {
  const seen = new Map<string, number>();
  return {
    next(row) {
      const key = importKey(row);
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      return { external_id: idOfKey(key, occurrence), occurrence };
    },
  };
}
