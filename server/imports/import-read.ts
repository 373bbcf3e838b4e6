// The reads of the import API: GET /v1/imports/{id} (an import, its summary and a page of its
// rows) and GET /v1/imports/presets.
import type { TDbOrTx } from "../db/client";
import { IMPORT_PAGE_ROWS, type TImport, type TImportPresetDto } from "./import.schema";
import { toPreviewRow } from "./import-rows";
import { readRows, requireImport, statusOf } from "./import-store";
import { IMPORT_PRESETS } from "./presets";

/** GET /v1/imports/{id}?offset=N */
export async function getImport(db: TDbOrTx, ownerId: string, id: string, offset = 0, now: Date = new Date()): Promise<TImport> {
  const row = await requireImport(db, ownerId, id);
  const rows = offset < row.listedRows ? await readRows(db, row.id, offset, IMPORT_PAGE_ROWS) : [];
  const next = offset + IMPORT_PAGE_ROWS;
  return {
    import_id: row.id,
    status: statusOf(row, now),
    business_id: row.businessId,
    project_id: row.projectId,
    preset: row.preset,
    file_name: row.fileName,
    file_bytes: row.fileBytes,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    reverted_at: row.revertedAt?.toISOString() ?? null,
    summary: { ...row.summary, proposals: row.proposals },
    result: row.result,
    rows: rows.map(toPreviewRow),
    page: { offset, next_offset: next < row.listedRows ? next : null },
  };
}

/** GET /v1/imports/presets */
export function listPresets(): TImportPresetDto[] {
  return IMPORT_PRESETS.map((preset) => ({
    id: preset.id,
    name: preset.name,
    description: preset.description,
    delimiter: preset.delimiter ?? null,
    date_format: preset.date_format,
    decimal_separator: preset.decimal_separator,
    thousands_separator: preset.thousands_separator ?? null,
    sign_convention: preset.sign_convention,
    columns: Object.fromEntries(Object.entries(preset.columns).map(([field, names]) => [field, [...names]])),
  }));
}
