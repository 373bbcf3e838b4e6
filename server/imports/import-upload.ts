// POST /v1/imports (contract: Import rules 1-3): checks the upload's business, project, preset
// and currency, parses the statement, builds its preview (import-preview.ts) and stores it for
// one hour in one transaction: the imports row, the rows in pages and the file itself (so a new
// mapping can re-read it: import-repreview.ts). Nothing reaches the ledger until the confirm
// (import-confirm.ts).
//
// Which mapping reads the file (issue 14): the request's, else the mapping the owner confirmed
// last time for this business and bank account (when the upload names the account), else the
// one for this business and header (saved-mappings.ts), else the preset's column names; a saved
// mapping that no longer fits the file (a column it names is gone) gives way to the next one.
// Formats the chosen mapping leaves open are guessed from the file. Rows without a currency
// cell take currency_default: the request's, else the chosen saved mapping's, else the business's.
import { randomUUID } from "node:crypto";
import { isCurrencyCode } from "../../lib/currencies";
import { addDays, todayUtc } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { ownerToday } from "../shared/owner-today";
import { unsafeTextReason } from "../shared/safe-text";
import { IMPORT_LIFETIME_MS, IMPORT_PAGE_ROWS, type TCreateImportResult } from "./import.schema";
import { buildPreview, type TMappingSource, type TPreview } from "./import-preview";
import { toPreviewRow } from "./import-rows";
import { inImportTransaction, writeRowPages, type TImportSettingsStored } from "./import-store";
import { findManualIntegration } from "./manual-integration";
import { normalizeAccount } from "./normalize-row";
import type { TParsedStatement, TParseOptions } from "./parse-statement";
import { inspectStatementOffThread, parseStatementOffThread } from "./statement-parser";
import { suggestPreset } from "./preset-suggestion";
import { uploadGate } from "./upload-gate";
import { findPreset, IMPORT_PRESETS, mergeSettings, type TImportMapping, type TImportPreset } from "./presets";
import { findSavedMapping, type TSavedMapping, type TSavedMappingKind } from "./saved-mappings";

export type TCreateImportInput = {
  /** Kept with the import (bytea) as is: no copy of a 10 MB file. */
  bytes: Uint8Array<ArrayBuffer>;
  fileName: string | null;
  businessId: string;
  projectId?: string;
  presetId: string;
  mapping?: TImportMapping;
  ownAccounts?: string[];
  currencyDefault?: string;
  /** The bank account the statement comes from, trimmed (an IBAN, a number or a short name). */
  account?: string;
  reconcile: boolean;
};

/** The longest account an upload names (as the owner writes it, trimmed). */
export const IMPORT_ACCOUNT_MAX = 64;

/** 400 unless one line of 1 to 64 characters with a letter or digit (its comparison form is not empty). */
export function assertAccount(account: string | undefined): void {
  if (account === undefined) return;
  const unsafe = unsafeTextReason(account);
  if (unsafe) throw AppError.invalidField("account", unsafe);
  if (account.length < 1 || account.length > IMPORT_ACCOUNT_MAX) {
    throw AppError.invalidField("account", `must be 1 to ${IMPORT_ACCOUNT_MAX} characters`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(account)) {
    throw AppError.invalidField("account", "must be one line without control characters");
  }
  if (normalizeAccount(account) === "") {
    throw AppError.invalidField("account", "must hold a letter or digit (an IBAN, an account number or a short name)");
  }
}

/** 400 unless an ISO 4217 code in upper case. */
export function assertCurrencyDefault(code: string | undefined): void {
  if (code !== undefined && (!/^[A-Z]{3}$/.test(code) || !isCurrencyCode(code))) {
    throw AppError.invalidField("currency_default", "must be an ISO 4217 code in upper case, e.g. EUR");
  }
}

export function requirePreset(id: string): TImportPreset {
  const preset = findPreset(id);
  if (!preset) throw AppError.invalidField("preset", `unknown preset; one of ${IMPORT_PRESETS.map((p) => p.id).join(", ")}`);
  return preset;
}

export type TPreviewRequest = {
  ownerId: string;
  businessId: string;
  projectId?: string;
  preset: TImportPreset;
  mapping?: TImportMapping;
  mappingSource: TMappingSource;
  /** mappingSource saved: what the saved mapping was kept for. */
  mappingSavedFor: TSavedMappingKind | null;
  currencyDefault: string;
  settings: Omit<TImportSettingsStored, "currency_default">;
  now: Date;
};

/** What the parser thread needs of a preview request (plain data: it crosses the thread boundary). */
function parseOptionsOf(request: TPreviewRequest, today: string): TParseOptions {
  return {
    preset: request.preset,
    mapping: request.mapping,
    currencyDefault: request.currencyDefault,
    ownAccounts: request.settings.own_accounts,
    // The ingest path refuses future actual events; a day of slack for the timezones.
    latestDay: addDays(todayUtc(request.now), 1),
    today,
    account: request.settings.account ?? undefined,
  };
}

/** The preview of parsed rows: matched against the ledger (reads only). */
async function previewParsed(db: TDbOrTx, request: TPreviewRequest, parsed: TParsedStatement, today: string): Promise<TPreview> {
  const manual = await findManualIntegration(db, request.ownerId);
  const preview = await buildPreview(
    db,
    {
      ownerId: request.ownerId,
      businessId: request.businessId,
      projectId: request.projectId,
      manualId: manual?.id,
      reconcile: request.settings.reconcile,
      today,
      mappingSource: request.mappingSource,
      mappingSavedFor: request.mappingSavedFor,
      account: request.settings.account,
      currencyDefault: request.currencyDefault,
    },
    parsed,
  );
  preview.summary.suggested_preset = suggestPreset(parsed.header, request.preset.id);
  return preview;
}

/** Reads a stored statement's bytes with a mapping (off the request thread) and builds its preview (reads only). */
export async function previewStatement(db: TDbOrTx, bytes: Uint8Array, request: TPreviewRequest): Promise<TPreview> {
  const today = await ownerToday(db, request.ownerId, request.now);
  const { parsed } = await parseStatementOffThread(bytes, [parseOptionsOf(request, today)]);
  return previewParsed(db, request, parsed, today);
}

/** An upload read and checked, before its transaction: what createImport stores. */
export type TPreparedImport = {
  input: TCreateImportInput;
  signature: string;
  /** The candidate whose mapping read the file. */
  request: TPreviewRequest;
  parsed: TParsedStatement;
  today: string;
  /** Gives the statement's rows back to the upload gate (upload-gate.ts): call once answered. */
  release: () => void;
};

/**
 * Everything of an upload that needs no transaction: the fields checked, the file inspected and
 * parsed off the request thread, the saved mappings looked up. The upload route runs it before
 * its keyed transaction, so an upload waiting for the parser holds no database connection.
 */
export async function prepareImport(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateImportInput,
  now: Date = caller.now,
): Promise<TPreparedImport> {
  const { ownerId } = caller;
  const business = await requireBusiness(db, ownerId, input.businessId);
  if (input.projectId) {
    const project = await db.project.findFirst({
      where: { id: input.projectId, ownerId, businessId: input.businessId },
      select: { id: true },
    });
    if (!project) throw AppError.notFound("project");
  }
  const preset = requirePreset(input.presetId);
  assertCurrencyDefault(input.currencyDefault);
  assertAccount(input.account);

  // 415, 413 or 400 before any lookup: the file's shape, in one pass that keeps no row.
  const { signature, rows } = await inspectStatementOffThread(input.bytes, mergeSettings(preset, input.mapping).delimiter);
  // Its rows from the process's budget before they exist on this thread (released by the caller).
  const release = await uploadGate().acquire(rows);
  try {
    return { input, signature, release, ...(await parseCandidates(db, caller, input, { business, preset, signature, now })) };
  } catch (error) {
    release();
    throw error;
  }
}

/** The candidates in order (the request's mapping, else the saved ones, then the preset's), parsed off the thread. */
async function parseCandidates(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateImportInput,
  found: { business: { currency: string }; preset: TImportPreset; signature: string; now: Date },
): Promise<Pick<TPreparedImport, "request" | "parsed" | "today">> {
  const { ownerId } = caller;
  const { business, preset, signature, now } = found;
  const settings = { reconcile: input.reconcile, own_accounts: input.ownAccounts ?? [], account: input.account ?? null };
  const base = { ownerId, businessId: input.businessId, projectId: input.projectId, preset, settings, now };
  const readWith = (mapping: TImportMapping | undefined, source: TMappingSource, saved: TSavedMapping | null) => ({
    ...base,
    mapping,
    mappingSource: source,
    mappingSavedFor: saved?.kind ?? null,
    currencyDefault: input.currencyDefault ?? saved?.currencyDefault ?? business.currency,
  });

  // The candidates in order; the last (the request's mapping, or the preset's names) is never skipped.
  const candidates: TPreviewRequest[] = [];
  if (input.mapping) candidates.push(readWith(input.mapping, "request", null));
  else {
    const where = { ownerId, businessId: input.businessId };
    const saved = [
      input.account ? await findSavedMapping(db, { ...where, kind: "account", account: input.account }) : null,
      await findSavedMapping(db, { ...where, kind: "layout", signature }),
    ];
    for (const one of saved) if (one) candidates.push(readWith(one.mapping, "saved", one));
    candidates.push(readWith(undefined, "preset", null));
  }
  const today = await ownerToday(db, ownerId, now);
  const { index, parsed } = await parseStatementOffThread(
    input.bytes,
    candidates.map((candidate) => parseOptionsOf(candidate, today)),
  );
  return { request: candidates[index]!, parsed, today };
}

/**
 * POST /v1/imports: parse (unless the route prepared it before its transaction), look up, store
 * the preview. Nothing is written to the ledger.
 */
export async function createImport(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateImportInput,
  now: Date = caller.now,
  prepared?: TPreparedImport,
): Promise<TCreateImportResult> {
  if (!prepared) {
    const own = await prepareImport(db, caller, input, now);
    try {
      return await createImport(db, caller, input, now, own);
    } finally {
      own.release();
    }
  }
  const { ownerId } = caller;
  const upload = prepared;
  // Read again in the transaction: the business may have gone while the file was parsed.
  await requireBusiness(db, ownerId, input.businessId);
  const { request, signature, parsed, today } = upload;
  const preview = await previewParsed(db, request, parsed, today);
  const { rows, summary, proposals } = preview;
  const preset = request.preset;
  const settings = request.settings;
  const stored: TImportSettingsStored = { ...settings, currency_default: request.currencyDefault };

  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + IMPORT_LIFETIME_MS);
  await inImportTransaction(db, async (tx) => {
    // Files of the owner's previews that can no longer be confirmed are not kept.
    await tx.import.updateMany({
      where: { ownerId, source: { not: null }, expiresAt: { lte: now } },
      data: { source: null },
    });
    await tx.import.create({
      data: {
        id,
        ownerId,
        businessId: input.businessId,
        projectId: input.projectId ?? null,
        preset: preset.id,
        mapping: input.mapping ?? {},
        settings: stored,
        fileName: input.fileName,
        fileBytes: input.bytes.byteLength,
        totalRows: summary.total_rows,
        listedRows: rows.length,
        summary,
        proposals,
        expiresAt,
        createdAt: now,
        source: input.bytes,
        signature,
      },
    });
    await writeRowPages(tx, id, rows);
  });

  return {
    import_id: id,
    expires_at: expiresAt.toISOString(),
    preview: { ...summary, rows: rows.slice(0, IMPORT_PAGE_ROWS).map(toPreviewRow), proposals },
  };
}
