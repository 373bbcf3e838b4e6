// POST /v1/imports (contract: Import rules 1-3): checks the upload's business, project, preset
// and currency, parses the statement, builds its preview (import-preview.ts) and stores it for
// one hour in one transaction: the imports row and the rows in pages. Nothing reaches the
// ledger until the confirm (import-confirm.ts).
import { randomUUID } from "node:crypto";
import { isCurrencyCode } from "../../lib/currencies";
import { addDays, todayUtc } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { IMPORT_LIFETIME_MS, IMPORT_PAGE_ROWS, type TCreateImportResult } from "./import.schema";
import { buildPreview } from "./import-preview";
import { packRow, toPreviewRow } from "./import-rows";
import { inImportTransaction, type TImportSettingsStored } from "./import-store";
import { findManualIntegration } from "./manual-integration";
import { parseStatement } from "./parse-statement";
import { findPreset, IMPORT_PRESETS, type TImportMapping } from "./presets";

/** Row pages per INSERT (bind-parameter limits). */
const PAGES_PER_INSERT = 20;

export type TCreateImportInput = {
  bytes: Uint8Array;
  fileName: string | null;
  businessId: string;
  projectId?: string;
  presetId: string;
  mapping?: TImportMapping;
  ownAccounts?: string[];
  currencyDefault?: string;
  reconcile: boolean;
};

/** POST /v1/imports: parse, look up, store the preview. Nothing is written to the ledger. */
export async function createImport(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateImportInput,
  now: Date = new Date(),
): Promise<TCreateImportResult> {
  const { ownerId } = caller;
  await requireBusiness(db, ownerId, input.businessId);
  if (input.projectId) {
    const project = await db.project.findFirst({
      where: { id: input.projectId, ownerId, businessId: input.businessId },
      select: { id: true },
    });
    if (!project) throw AppError.notFound("project");
  }
  const preset = findPreset(input.presetId);
  if (!preset) {
    throw AppError.invalidField("preset", `unknown preset; one of ${IMPORT_PRESETS.map((p) => p.id).join(", ")}`);
  }
  if (
    input.currencyDefault !== undefined &&
    (!/^[A-Z]{3}$/.test(input.currencyDefault) || !isCurrencyCode(input.currencyDefault))
  ) {
    throw AppError.invalidField("currency_default", "must be an ISO 4217 code in upper case, e.g. EUR");
  }

  const today = todayUtc(now);
  const parsed = parseStatement(input.bytes, {
    preset,
    mapping: input.mapping,
    currencyDefault: input.currencyDefault,
    ownAccounts: input.ownAccounts,
    latestDay: addDays(today, 1),
  });
  const manual = await findManualIntegration(db, ownerId);
  const { rows, summary, proposals } = await buildPreview(
    db,
    {
      ownerId,
      businessId: input.businessId,
      projectId: input.projectId,
      manualId: manual?.id,
      reconcile: input.reconcile,
      today,
    },
    parsed,
  );
  const settings: TImportSettingsStored = {
    currency_default: input.currencyDefault ?? null,
    reconcile: input.reconcile,
    own_accounts: input.ownAccounts ?? [],
  };

  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + IMPORT_LIFETIME_MS);
  const pages: Prisma.ImportRowPageCreateManyInput[] = [];
  for (let start = 0; start < rows.length; start += IMPORT_PAGE_ROWS) {
    pages.push({
      importId: id,
      pageNo: start / IMPORT_PAGE_ROWS,
      rows: rows.slice(start, start + IMPORT_PAGE_ROWS).map(packRow),
    });
  }
  await inImportTransaction(db, async (tx) => {
    await tx.import.create({
      data: {
        id,
        ownerId,
        businessId: input.businessId,
        projectId: input.projectId ?? null,
        preset: preset.id,
        mapping: input.mapping ?? {},
        settings,
        fileName: input.fileName,
        fileBytes: input.bytes.byteLength,
        totalRows: parsed.total_rows,
        listedRows: rows.length,
        summary,
        proposals,
        expiresAt,
        createdAt: now,
      },
    });
    for (let start = 0; start < pages.length; start += PAGES_PER_INSERT) {
      await tx.importRowPage.createMany({ data: pages.slice(start, start + PAGES_PER_INSERT) });
    }
  });

  return {
    import_id: id,
    expires_at: expiresAt.toISOString(),
    preview: {
      ...summary,
      rows: rows.slice(0, IMPORT_PAGE_ROWS).map(toPreviewRow),
      proposals,
    },
  };
}
