// POST /v1/imports/{id}/preview (additive, issue 14): the same file read again with another
// mapping or default currency, without uploading it again. The file is kept with the import
// while it can be confirmed (one hour after the upload: expires_at does not move). The rows,
// summary and proposals of the last preview are replaced, in one transaction; the import's
// mapping becomes the one sent, so the confirm writes what the owner saw last.
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { IMPORT_PAGE_ROWS, type TCreateImportResult, type TPreviewImportInput } from "./import.schema";
import { toPreviewRow } from "./import-rows";
import { importSource, inImportTransaction, requireImport, statusOf, writeRowPages } from "./import-store";
import { assertCurrencyDefault, previewStatement, requirePreset } from "./import-upload";

export async function repreviewImport(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TPreviewImportInput,
  now: Date = caller.now,
): Promise<TCreateImportResult> {
  const { ownerId } = caller;
  const record = await requireImport(db, ownerId, id);
  const status = statusOf(record, now);
  if (status !== "previewed") {
    throw new AppError(
      "state_conflict",
      status === "confirmed" || status === "reverted"
        ? `This import is already ${status}; upload the statement again to read it another way.`
        : "This preview expired (one hour after the upload) and its file is gone; upload the statement again.",
      { details: { status, expires_at: record.expiresAt.toISOString() } },
    );
  }
  assertCurrencyDefault(input.currency_default);
  const source = await importSource(db, record.id);
  if (!source) throw new AppError("state_conflict", "This import's file is no longer kept; upload the statement again.");

  // Another preset (the suggestion taken): resolved like the upload's, read with its own column names unless a mapping is sent.
  const preset = requirePreset(input.preset ?? record.preset);
  const presetChanged = preset.id !== record.preset;
  const mapping = input.mapping ?? (presetChanged ? undefined : (record.summary.mapping ?? record.mapping));
  const currencyDefault = input.currency_default ?? record.settings.currency_default;
  const { rows, summary, proposals } = await previewStatement(db, source, {
    ownerId,
    businessId: record.businessId,
    projectId: record.projectId ?? undefined,
    preset,
    mapping,
    mappingSource: input.mapping ? "request" : presetChanged ? "preset" : (record.summary.mapping_source ?? "request"),
    // Reported with mapping_source saved only; imports stored before accounts were kept had the layout's.
    mappingSavedFor: record.summary.mapping_saved_for ?? "layout",
    // Stored imports always hold one since issue 14; the business's is the default of older ones.
    currencyDefault:
      currencyDefault ??
      (await db.business.findUniqueOrThrow({ where: { id: record.businessId }, select: { currency: true } })).currency,
    // The upload's account stays the import's: the confirm keeps the mapping for it.
    settings: {
      reconcile: record.settings.reconcile,
      own_accounts: record.settings.own_accounts,
      account: record.settings.account,
    },
    now,
  });

  await inImportTransaction(db, async (tx) => {
    const updated = await tx.import.updateMany({
      where: { id: record.id, ownerId, status: "previewed", expiresAt: { gt: now } },
      data: {
        preset: preset.id,
        mapping: mapping ?? {},
        settings: { ...record.settings, currency_default: summary.currency_default ?? null },
        totalRows: summary.total_rows,
        listedRows: rows.length,
        summary,
        proposals,
      },
    });
    if (updated.count === 0) throw new AppError("state_conflict", "This import was confirmed or expired meanwhile.");
    await writeRowPages(tx, record.id, rows, true);
  });

  return {
    import_id: record.id,
    expires_at: record.expiresAt.toISOString(),
    preview: { ...summary, rows: rows.slice(0, IMPORT_PAGE_ROWS).map(toPreviewRow), proposals },
  };
}
