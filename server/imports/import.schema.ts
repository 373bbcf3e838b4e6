// The statement import API's shapes (contract: Import preview, Import rules): preview rows,
// proposals, the summary kept with an import, the confirm body and its answer.
import { z } from "zod";
import { BILLING_INTERVALS } from "../subscriptions/subscription.schema";
import { ZTimestamp, ZUuid } from "../shared/schemas";
import { DATE_FORMATS, DECIMAL_SEPARATORS, FIELDS, SIGN_CONVENTIONS, THOUSANDS_SEPARATORS, ZImportMapping } from "./presets";

/** Rows per stored page and per answer (contract Limits: first 500 rows, further rows by offset). */
export const IMPORT_PAGE_ROWS = 500;
/** The file itself (contract Limits: at most 10 MB; read as 10 MiB). */
export const IMPORT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The whole multipart body: the file plus the envelope and the other fields. */
export const IMPORT_MAX_BODY_BYTES = IMPORT_MAX_FILE_BYTES + 256 * 1024;
/** A preview can be confirmed for this long (contract Limits: 1 hour). */
export const IMPORT_LIFETIME_MS = 60 * 60 * 1000;
/**
 * A 100,000-row confirm ingests for longer than Prisma's default 5 s interactive-transaction
 * timeout: imports run their one transaction with these limits. Under the REST layer the
 * routes declare them for the request's transaction, which the import's then joins.
 */
export const IMPORT_TX_OPTIONS = { maxWait: 10_000, timeout: 5 * 60_000 } as const;
/** At most this many rejected rows are listed in a summary (rejected_count has them all). */
export const IMPORT_MAX_LISTED_REJECTIONS = 1000;

export const IMPORT_ROW_STATUSES = ["new", "already", "reconciled", "rejected"] as const;
export type TImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];

export const ZImportMatchedEvent = z
  .object({
    id: ZUuid,
    type: z.string().describe("The event's type (expense, revenue, …)."),
    source_type: z.string().describe("MANUAL: an entry made by hand (the same money entered earlier); else the integration's."),
    occurred_on: z.string(),
    amount_minor: z.number().int().describe("Positive minor units, as the event stores it."),
    currency: z.string(),
    description: z.string().nullable(),
  })
  .meta({
    id: "ImportMatchedEvent",
    description:
      "Additive (issue 32). The event a reconciled row matches, as it was when the rows were previewed, so the owner can " +
      "tell whether it is the same money before confirming (confirm's keep_separate keeps both).",
  });

export const ZImportRow = z
  .object({
    row: z.number().int().describe("1-based position among the file's data rows (header and blank lines not counted)."),
    status: z.enum(IMPORT_ROW_STATUSES),
    matched_event_id: ZUuid.optional().describe(
      "already: the stored import event with this external_id; reconciled: the event it matches: an integration's, or " +
        "(additive, issue 32) an entry made by hand in the import's business (source MANUAL), same currency, amount and " +
        "direction of money, at most 3 days apart, not matched by another line yet; the nearest date wins, then the oldest.",
    ),
    matched_event: ZImportMatchedEvent.optional(),
    external_id: z
      .string()
      .nullable()
      .describe("Deterministic (imp_ + hash of the key columns and the occurrence); null for a rejected row."),
    amount_minor: z
      .number()
      .int()
      .describe("Signed as on the statement: negative = money out (an expense), positive = money in (a revenue)."),
    currency: z.string(),
    occurred_on: z.string(),
    description: z.string(),
    counterparty: z.string().optional(),
    category: z
      .string()
      .optional()
      .describe(
        "From the file's category column, else from the owner's first matching category rule; confirm's categories can change it.",
      ),
    project_id: ZUuid.optional().describe(
      "The project a category rule gives the row, when the import names none (additive, issue 14); confirm's categories can change it.",
    ),
    reference: z.string().optional(),
    reject_reason: z.string().optional(),
    account: z.string().optional().describe("The owner's own account of the row (a mapped account column)."),
    raw: z
      .array(z.string())
      .optional()
      .describe(
        "Rejected rows only: the row's cells as read, in the header's order (at most 60 cells of 200 characters), so the " +
          "owner sees what the mapping could not read.",
      ),
  })
  .meta({ id: "ImportRow" });
export type TImportPreviewRow = z.infer<typeof ZImportRow>;

export const ZImportProposal = z
  .object({
    name: z.string(),
    counterparty: z.string(),
    amount_minor: z.number().int().describe("The typical charge, positive minor units."),
    currency: z.string(),
    billing_interval: z.enum(BILLING_INTERVALS),
    next_charge_on: z.string(),
    occurrences: z.number().int(),
    confidence: z.number().min(0).max(1),
  })
  .meta({ id: "ImportProposal", description: "A detected recurring charge: a candidate subscription." });

export const ZImportRejection = z
  .object({
    row: z.number().int(),
    external_id: z.string().nullable(),
    reject_reason: z.string(),
  })
  .meta({ id: "ImportRejection" });
export type TImportRejection = z.infer<typeof ZImportRejection>;

export const ZDateGuess = z
  .object({
    date_format: z.enum(DATE_FORMATS),
    candidates: z.array(z.enum(DATE_FORMATS)).describe("Formats that read as many sampled dates as the chosen one."),
    ambiguous: z.boolean().describe("The rows did not settle it (every day 12 or less, in date order either way): check it."),
    read: z.number().int().describe("Sampled date cells the chosen format reads."),
    sampled: z.number().int().describe("Non-empty date cells sampled (the first 1000 rows)."),
    note: z.string().describe("Why this format, in one sentence."),
  })
  .meta({ id: "ImportDateGuess" });

export const ZNumberGuess = z
  .object({
    decimal_separator: z.enum(DECIMAL_SEPARATORS),
    thousands_separator: z.enum(THOUSANDS_SEPARATORS).nullable(),
    ambiguous: z.boolean(),
    note: z.string(),
  })
  .meta({ id: "ImportNumberGuess" });

export const MAPPING_SOURCES = ["request", "saved", "preset"] as const;
/** What a saved mapping is kept for: the bank account the statement came from, or the statement's layout (header). */
export const SAVED_MAPPING_KINDS = ["account", "layout"] as const;

/** What a statement file is (preview.format, pinned-wave3 §3). */
export const STATEMENT_FORMATS = ["csv", "tsv", "ofx", "camt053", "camt052", "mt940", "qif"] as const;

export const ZBalanceCheck = z
  .object({
    account: z
      .string()
      .describe("The account as the file names it (an IBAN or account number); the upload's account for a QIF file."),
    currency: z.string(),
    opening_minor: z
      .number()
      .int()
      .nullable()
      .describe("The opening balance (CAMT OPBD or PRCD, MT940 :60F:); null: the file gives none (OFX)."),
    closing_minor: z
      .number()
      .int()
      .nullable()
      .describe("The closing balance (OFX LEDGERBAL, CAMT CLBD, MT940 :62F:); null: none."),
    closing_on: z.string().nullable().describe("The day of the closing balance: the cash snapshot's as_of at confirm."),
    rows_sum_minor: z.number().int().describe("The sum of the statement's booked lines of this account, signed."),
    difference_minor: z
      .number()
      .int()
      .nullable()
      .describe("closing − (opening + rows): 0 when it adds up, else the exact amount missing; null without both balances."),
    ok: z.boolean().nullable().describe("difference_minor is 0; null when it cannot be checked."),
  })
  .meta({ id: "ImportBalanceCheck" });

export const ZImportPreview = z
  .object({
    total_rows: z.number().int().describe("Data rows in the file, own-account transfers included."),
    rows: z.array(ZImportRow).describe("The first 500 listed rows (own-account transfers are not listed)."),
    would_insert: z.number().int().describe("Rows new or reconciled: each becomes an event at confirm."),
    would_dedupe: z.number().int().describe("Rows already imported (status already)."),
    would_reconcile: z
      .number()
      .int()
      .optional()
      .describe(
        "Additive (issue 32). Of would_insert, the rows reconciled: written at confirm out of every total (the event they " +
          "match counts). Absent on previews stored before this field.",
      ),
    rejected: z.array(ZImportRejection).describe("Rejected rows with their reasons (at most 1000; rejected_count counts all)."),
    rejected_count: z.number().int(),
    proposals: z.array(ZImportProposal),
    unmapped_columns: z.array(z.string()),
    skipped_transfers: z.number().int().describe("Rows between the owner's own accounts: skipped, never imported."),
    header: z.array(z.string()).optional().describe("The file's header row: the column names a mapping can name."),
    mapping: ZImportMapping.optional().describe(
      "The mapping the rows were read with, every column and format explicit (null: the field is not read); send it " +
        "back changed to POST /v1/imports/{id}/preview. Formats the request's mapping left open are guessed from the " +
        "file (format_guesses).",
    ),
    mapping_source: z
      .enum(MAPPING_SOURCES)
      .optional()
      .describe(
        "request: the upload's or re-preview's mapping; saved: a mapping confirmed earlier in this business (sent no " +
          "mapping; mapping_saved_for says for what); preset: the preset's column names, with the formats guessed from the file.",
      ),
    mapping_saved_for: z
      .enum(SAVED_MAPPING_KINDS)
      .nullable()
      .optional()
      .describe(
        "Additive (issue 14). With mapping_source saved, what the mapping was confirmed for: account (the last import of " +
          "this business from the same bank account, see account; tried first) or layout (the last import of this " +
          "business with the same header); null otherwise. A saved mapping that does not fit the file (a column it " +
          "names is missing) is skipped for the next one: account, then layout, then the preset.",
      ),
    account: z
      .string()
      .nullable()
      .optional()
      .describe(
        "Additive (issue 14). The bank account the upload named (the account field, trimmed, as written), or null. The " +
          "confirm keeps the mapping for it, and the next upload naming it (compared without blanks or hyphens, in any " +
          "case) is read with that mapping.",
      ),
    currency_default: z
      .string()
      .nullable()
      .optional()
      .describe("The currency of rows without a currency cell: the request's, else the saved mapping's, else the business's."),
    format_guesses: z
      .object({ date: ZDateGuess.optional(), number: ZNumberGuess.optional() })
      .optional()
      .describe("What was read off the file for the formats the mapping left open (absent: the mapping named it)."),
    format: z
      .enum(STATEMENT_FORMATS)
      .optional()
      .describe(
        "Additive (issue 35). What the file was recognized as, by its content: csv, tsv, or a bank statement format " +
          "(ofx: OFX 1.x SGML, 2.x XML and QFX; camt053 / camt052: ISO 20022; mt940: SWIFT; qif: its bank sections). A " +
          "bank statement is read by its standard: preset and mapping do not apply. Absent on previews stored before it.",
      ),
    balance_check: z
      .array(ZBalanceCheck)
      .optional()
      .describe(
        "Additive (issue 35). Per account (and currency) of a bank statement with balances: opening + rows = closing, " +
          "or by how much it is off. The confirm keeps each closing balance as a cash snapshot of that account.",
      ),
    suggested_preset: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .optional()
      .describe(
        "Additive (issue 14). The preset of GET /v1/imports/presets whose column names best match the header (most fields " +
          "found; ties: the first in that list), if it is not the one in use and it finds the date and the amount (or debit " +
          "and credit) columns; null otherwise. A suggestion only: re-preview with POST /v1/imports/{id}/preview and its " +
          "preset to apply it.",
      ),
  })
  .meta({ id: "ImportPreview" });

export const ZCreateImportResult = z
  .object({ import_id: ZUuid, expires_at: ZTimestamp, preview: ZImportPreview })
  .meta({ id: "ImportCreated" });
export type TCreateImportResult = z.infer<typeof ZCreateImportResult>;

/** The multipart fields of POST /v1/imports (documentation; the handler reads them from FormData). */
export const ZCreateImportForm = z
  .object({
    file: z
      .string()
      .meta({ format: "binary" })
      .describe(
        "The statement, at most 10 MB: CSV or TSV text (UTF-8 or Windows-1252), or a bank statement recognized by its " +
          "content (additive, issue 35): OFX 1.x/2.x or QFX, CAMT.053 or CAMT.052 (ISO 20022 XML), MT940, QIF. A bank " +
          "statement is read by its standard (preset and mapping do not apply; QIF takes currency_default and account).",
      ),
    business_id: ZUuid,
    project_id: ZUuid.optional().describe("A project of business_id."),
    preset: z.string().optional().describe("An id of GET /v1/imports/presets; default generic."),
    mapping: z
      .string()
      .optional()
      .describe(
        "JSON: an ImportMapping (columns to fields, formats) over the preset. Omitted: the mapping confirmed last time for " +
          "this business and account (when account is sent), else for this business and the same header, if any and if " +
          "it fits the file (preview.mapping_source saved, preview.mapping_saved_for account or layout), else the " +
          "preset's column names; a required column those names miss is read off the cells, and formats left open are " +
          "guessed from the file.",
      ),
    own_accounts: z
      .string()
      .optional()
      .describe('JSON: a list of the owner\'s own account numbers, e.g. ["DE89 3704 0044 0532 0130 00"].'),
    currency_default: z
      .string()
      .optional()
      .describe(
        "ISO 4217 code for rows without a currency column or cell. Default: the saved mapping's (see mapping), else the business's currency.",
      ),
    reconcile: z.enum(["true", "false"]).optional().describe("Match rows against integration events; default true."),
    account: z
      .string()
      .max(64)
      .optional()
      .describe(
        "Additive (issue 14). The bank account the statement comes from: an IBAN, an account number or a short name, " +
          'e.g. "DE89 3704 0044 0532 0130 00" or "Main card"; trimmed, 1 to 64 characters of one line, compared without ' +
          "blanks or hyphens and in any case. The confirm keeps the mapping for this account as well as for the header, " +
          "and an upload naming the account is read with that mapping first (see mapping). Echoed in preview.account; a " +
          "malformed value answers 400 validation_error naming account.",
      ),
  })
  .meta({ id: "CreateImportForm" });

export const ZImportSummary = ZImportPreview.omit({ rows: true }).meta({ id: "ImportSummary" });

export const ZImportPage = z.object({
  offset: z.number().int(),
  next_offset: z.number().int().nullable().describe("null on the last page."),
});

export const ZImportResult = z
  .object({
    inserted: z.number().int(),
    deduped: z.number().int(),
    reconciled: z
      .number()
      .int()
      .optional()
      .describe(
        "Additive (issue 32). Of inserted, the lines written reconciled (payload.reconciles_event_id, out of every total). " +
          "Absent on imports confirmed before this field.",
      ),
    rejected: z.array(ZImportRejection).describe("Rows rejected in the preview, and rows the ingest path refused."),
    proposals: z.array(ZImportProposal),
    subscriptions_created: z.array(ZUuid),
    cash_snapshots: z
      .array(
        z.object({
          account: z.string(),
          currency: z.string(),
          amount_minor: z.number().int(),
          as_of: z.string().describe("The closing balance's day, at 00:00 UTC."),
          outcome: z
            .enum(["created", "replaced", "kept", "rejected"])
            .describe("kept: that account already had a snapshot as recent for that day (a re-import)."),
          reason: z.string().optional().describe("Why a snapshot was rejected (e.g. no exchange rate for its currency)."),
        }),
      )
      .optional()
      .describe(
        "Additive (issue 35). The closing balances of a bank statement (preview.balance_check) kept as cash snapshots " +
          "of their accounts (source IMPORT), one per account and day.",
      ),
  })
  .meta({ id: "ImportConfirmResult" });
export type TImportResult = z.infer<typeof ZImportResult>;

/** An import's status: previewed (confirmable), expired (a preview past expires_at), confirmed, reverted (issue 32). */
export const IMPORT_STATUSES = ["previewed", "confirmed", "expired", "reverted"] as const;
export type TImportStatus = (typeof IMPORT_STATUSES)[number];

export const ZImport = z
  .object({
    import_id: ZUuid,
    status: z
      .enum(IMPORT_STATUSES)
      .describe("reverted (additive, issue 32): confirmed, then undone by POST /v1/imports/{id}/revert."),
    business_id: ZUuid,
    project_id: ZUuid.nullable(),
    preset: z.string(),
    file_name: z.string().nullable(),
    file_bytes: z.number().int(),
    created_at: ZTimestamp,
    expires_at: ZTimestamp,
    confirmed_at: ZTimestamp.nullable(),
    reverted_at: ZTimestamp.nullable().optional().describe("Additive (issue 32). When the import was reverted; null otherwise."),
    summary: ZImportSummary,
    result: ZImportResult.nullable().describe("The confirm's answer, once confirmed."),
    rows: z.array(ZImportRow).describe("Up to 500 rows from offset."),
    page: ZImportPage,
  })
  .meta({ id: "Import" });
export type TImport = z.infer<typeof ZImport>;

export const ZConfirmImportInput = z.object({
  mapping: ZImportMapping.optional().describe(
    "Must equal the mapping of the last preview (as sent, or its effective preview.mapping), or be omitted: the rows " +
      "confirmed are the rows previewed. A different mapping answers 400: re-preview with POST /v1/imports/{id}/preview first.",
  ),
  exclude_external_ids: z.array(z.string().max(255)).max(100_000).optional().describe("Rows not to import."),
  accept_proposals: z
    .array(z.number().int().min(0))
    .max(1000)
    .optional()
    .describe("Indexes of preview.proposals; each becomes a recurring-expense subscription (an unknown index: 400)."),
  keep_separate: z
    .array(z.number().int().min(1))
    .max(100_000)
    .optional()
    .describe(
      "Additive (issue 32). Row numbers (preview rows[].row) the owner says are not the event they were matched to (the " +
        'panel\'s "not the same"): each is written as a new event that counts, and kept out of the daily reconciliation ' +
        "(payload.reconcile = false), so the matched event and the line both count. A row that is not reconciled is written " +
        "as usual and kept out of the reconciliation too. A number that is not a row of the file: 400.",
    ),
  categories: z
    .array(
      z.object({
        external_id: z.string().max(255),
        category: z.string().trim().max(100).nullable().describe("The row's category; null or empty: none."),
        project_id: ZUuid.nullable()
          .optional()
          .describe("A project of the import's business (another: 404 not_found); null: none. Omitted: as previewed."),
      }),
    )
    .max(100_000)
    .optional()
    .describe(
      "The owner's edits of the preview: each row named by external_id is written with this category (and project) " +
        "instead of the previewed one. Additive (issue 14).",
    ),
});
export type TConfirmImportInput = z.infer<typeof ZConfirmImportInput>;

export const ZPreviewImportInput = z.object({
  mapping: ZImportMapping.optional().describe(
    "The new mapping (columns to fields, formats). Omitted: the last preview's effective mapping (preview.mapping).",
  ),
  currency_default: z
    .string()
    .optional()
    .describe("ISO 4217 code for rows without a currency cell. Omitted: the last preview's."),
  preset: z
    .string()
    .max(100)
    .optional()
    .describe(
      "Additive (issue 14). An id of GET /v1/imports/presets (an unknown id: 400, as on upload) the file is read with from " +
        "now on, e.g. preview.suggested_preset.id; without a mapping, that preset's column names and formats guessed from " +
        "the file. Omitted: the import's preset.",
    ),
});
export type TPreviewImportInput = z.infer<typeof ZPreviewImportInput>;

export const ZImportPreset = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    delimiter: z.string().nullable().describe("null: detected from the file."),
    date_format: z.enum(DATE_FORMATS),
    decimal_separator: z.enum(DECIMAL_SEPARATORS),
    thousands_separator: z.enum(THOUSANDS_SEPARATORS).nullable(),
    sign_convention: z.enum(SIGN_CONVENTIONS),
    columns: z.partialRecord(z.enum(FIELDS), z.array(z.string())).describe("Header names tried per field, first match wins."),
  })
  .meta({ id: "ImportPreset" });
export type TImportPresetDto = z.infer<typeof ZImportPreset>;

export const ZImportListItem = z
  .object({
    id: ZUuid,
    business_id: ZUuid,
    project_id: ZUuid.nullable(),
    file_name: z.string().nullable(),
    format: z.string().describe("The preset the file was read with (an id of GET /v1/imports/presets, e.g. generic)."),
    status: z.enum(IMPORT_STATUSES),
    total_rows: z.number().int().describe("Data rows in the file, own-account transfers included."),
    inserted: z
      .number()
      .int()
      .describe("Confirmed or reverted: events the confirm wrote (reconciled lines included); else rows that would be."),
    deduped: z.number().int().describe("Rows already imported (by an earlier import): written by none."),
    reconciled: z
      .number()
      .int()
      .describe(
        "Of inserted, the lines matched to an integration's event or a hand entry (out of every total): at confirm, or in " +
          "the preview. Matches the daily reconciliation made later are not counted here.",
      ),
    rejected: z.number().int().describe("Rows the preview could not read, and rows the confirm refused."),
    created_at: ZTimestamp,
    expires_at: ZTimestamp,
    confirmed_at: ZTimestamp.nullable(),
    reverted_at: ZTimestamp.nullable(),
  })
  .meta({ id: "ImportListItem" });
export type TImportListItem = z.infer<typeof ZImportListItem>;

export const IMPORT_REVERT_SKIP_REASONS = ["corrected", "voided"] as const;
/** At most this many skipped events are listed in a revert's answer (skipped_count has them all). */
export const IMPORT_MAX_LISTED_SKIPS = 1000;

export const ZImportRevertResult = z
  .object({
    import_id: ZUuid,
    voided: z.number().int().describe("Events of the import voided by the revert (they no longer count anywhere)."),
    skipped: z
      .array(
        z.object({
          event_id: ZUuid,
          reason: z
            .enum(IMPORT_REVERT_SKIP_REASONS)
            .describe(
              "corrected: the owner corrected it after the import (the correction is theirs and stays); voided: the owner " +
                "voided it already.",
            ),
        }),
      )
      .describe(`Events of the import left as they are, oldest row first (at most ${IMPORT_MAX_LISTED_SKIPS}).`),
    skipped_count: z.number().int().describe("Every skipped event, listed or not."),
    reconciliations_undone: z
      .number()
      .int()
      .describe(
        "Voided lines that were reconciled: their link (payload.reconciles_event_id) is removed, so the events they matched " +
          "(which always counted) can be matched by another line.",
      ),
    subscriptions_kept: z
      .array(ZUuid)
      .describe("Subscriptions the import created from its proposals: left as they are (cancel them on their own)."),
    reverted_at: ZTimestamp,
  })
  .meta({ id: "ImportRevertResult" });
export type TImportRevertResult = z.infer<typeof ZImportRevertResult>;
