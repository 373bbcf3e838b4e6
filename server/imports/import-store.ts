// What an import keeps between the upload and the confirm (contract: Import preview): the
// `imports` row, whose JSON columns (mapping, settings, summary, proposals, result) are parsed
// with their schema whenever they are read, and the preview rows in pages (import-rows.ts).
// A stored value that does not match its schema fails loudly here, not deep in a confirm.
import { z } from "zod";
import type { TDbOrTx, TTx } from "../db/client";
import type { Import } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { ZUuid } from "../shared/schemas";
import {
  IMPORT_PAGE_ROWS,
  IMPORT_TX_OPTIONS,
  ZImportProposal,
  ZImportResult,
  ZImportSummary,
  type TImport,
} from "./import.schema";
import { packRow, unpackRow, ZStoredRow, type TRowData, type TStoredRow } from "./import-rows";
import { ZImportMapping } from "./presets";

/** The upload's options that the confirm still needs (imports.settings). */
export const ZImportSettingsStored = z.object({
  currency_default: z.string().nullable().default(null),
  /** false: the owner keeps these lines out of the reconciliation (preview and daily job). */
  reconcile: z.boolean().default(true),
  own_accounts: z.array(z.string()).default([]),
  /** The bank account the statement comes from (as the owner wrote it): the confirm keeps the mapping for it too. */
  account: z.string().nullable().default(null),
});
export type TImportSettingsStored = z.infer<typeof ZImportSettingsStored>;

/** imports.summary: the preview's summary without its proposals (kept in imports.proposals). */
export const ZStoredSummary = ZImportSummary.omit({ proposals: true });
export type TStoredSummary = z.infer<typeof ZStoredSummary>;

export const ZStoredProposals = z.array(ZImportProposal);
export type TStoredProposal = z.infer<typeof ZImportProposal>;

const ZStoredPage = z.array(ZStoredRow);

/** An import as read: its JSON columns parsed. */
export type TStoredImport = Omit<Import, "source" | "mapping" | "settings" | "summary" | "proposals" | "result"> & {
  mapping: z.infer<typeof ZImportMapping>;
  settings: TImportSettingsStored;
  summary: TStoredSummary;
  proposals: TStoredProposal[];
  result: z.infer<typeof ZImportResult> | null;
};

function parseStored<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`The stored ${what} does not match its schema: ${parsed.error.message}`);
  return parsed.data;
}

function readImport(row: Omit<Import, "source">): TStoredImport {
  const where = `import ${row.id}`;
  return {
    ...row,
    mapping: parseStored(ZImportMapping, row.mapping, `mapping of ${where}`),
    settings: parseStored(ZImportSettingsStored, row.settings, `settings of ${where}`),
    summary: parseStored(ZStoredSummary, row.summary, `summary of ${where}`),
    proposals: parseStored(ZStoredProposals, row.proposals, `proposals of ${where}`),
    result: parseStored(ZImportResult.nullable(), row.result, `result of ${where}`),
  };
}

/** The preview rows of stored pages, in order. */
export function rowsOfPages(pages: ReadonlyArray<{ importId: string; pageNo: number; rows: unknown }>): TRowData[] {
  return pages.flatMap((page) =>
    parseStored(ZStoredPage, page.rows, `page ${page.pageNo} of import ${page.importId}`).map((packed: TStoredRow) =>
      unpackRow(packed),
    ),
  );
}

/** The owner's import, or 404 not_found (also for an id that is not a UUID). */
export async function requireImport(db: TDbOrTx, ownerId: string, id: string): Promise<TStoredImport> {
  // The kept file (up to 10 MB) is read only by the re-preview (importSource).
  const row = ZUuid.safeParse(id).success ? await db.import.findFirst({ where: { id, ownerId }, omit: { source: true } }) : null;
  if (!row) throw AppError.notFound("import");
  return readImport(row);
}

/** The kept file of an import (null once confirmed or expired). */
export async function importSource(db: TDbOrTx, importId: string): Promise<Uint8Array | null> {
  const row = await db.import.findUnique({ where: { id: importId }, select: { source: true } });
  return row?.source ?? null;
}

/** Drops the kept files of previews past expires_at (they can no longer be re-read or confirmed); answers how many. */
export async function sweepImportSources(db: TDbOrTx, now: Date): Promise<number> {
  const { count } = await db.import.updateMany({
    where: { source: { not: null }, expiresAt: { lte: now } },
    data: { source: null },
  });
  return count;
}

/** Row pages per INSERT (bind-parameter limits). */
const PAGES_PER_INSERT = 20;

/** Writes an import's preview rows in pages of 500 (the pages of an earlier preview deleted first). */
export async function writeRowPages(tx: TTx, importId: string, rows: readonly TRowData[], replace = false): Promise<void> {
  if (replace) await tx.importRowPage.deleteMany({ where: { importId } });
  const pages: Array<{ importId: string; pageNo: number; rows: TStoredRow[] }> = [];
  for (let start = 0; start < rows.length; start += IMPORT_PAGE_ROWS) {
    pages.push({ importId, pageNo: start / IMPORT_PAGE_ROWS, rows: rows.slice(start, start + IMPORT_PAGE_ROWS).map(packRow) });
  }
  for (let start = 0; start < pages.length; start += PAGES_PER_INSERT) {
    await tx.importRowPage.createMany({ data: pages.slice(start, start + PAGES_PER_INSERT) });
  }
}

/** Rows [offset, offset + limit) from the stored pages (at most two pages read). */
export async function readRows(db: TDbOrTx, importId: string, offset: number, limit: number): Promise<TRowData[]> {
  const first = Math.floor(offset / IMPORT_PAGE_ROWS);
  const last = Math.floor((offset + limit - 1) / IMPORT_PAGE_ROWS);
  const pages = await db.importRowPage.findMany({
    where: { importId, pageNo: { gte: first, lte: last } },
    orderBy: { pageNo: "asc" },
  });
  const skip = offset - first * IMPORT_PAGE_ROWS;
  return rowsOfPages(pages).slice(skip, skip + limit);
}

export function statusOf(row: { status: string; expiresAt: Date }, now: Date): TImport["status"] {
  if (row.status === "confirmed" || row.status === "reverted") return row.status;
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "previewed";
}

/** An import's one transaction, with the limits a 100,000-row statement needs. */
export function inImportTransaction<T>(db: TDbOrTx, fn: (tx: TTx) => Promise<T>): Promise<T> {
  return inTransaction(db, fn, IMPORT_TX_OPTIONS);
}
