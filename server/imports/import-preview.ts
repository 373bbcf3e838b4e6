// The preview of a parsed statement (contract: Import preview): each row's status (new,
// already imported, reconciled with an integration's event or a hand entry, rejected), the
// summary and the recurring charges proposed as subscriptions. Reads only; the upload stores the result.
// Every lookup is set-based: one query for the file's external ids, one for the
// reconciliation, two for the proposals, whatever the number of rows.
import { z } from "zod";
import { addDays, utcDayOf, utcMidnightOf } from "../../lib/days";
import { categorize } from "../category-rules/categorize";
import { loadCategoryRules, ruleOutcome } from "../category-rules/category-rule-service";
import type { TDbOrTx } from "../db/client";
import { IMPORT_MAX_LISTED_REJECTIONS, MAPPING_SOURCES, type TImportRejection } from "./import.schema";
import { reconcileRows, type TOkRow } from "./import-reconcile";
import type { TMatchedEntry, TRowData } from "./import-rows";
import type { TStoredSummary } from "./import-store";
import type { TParsedStatement } from "./parse-statement";
import type { TSavedMappingKind } from "./saved-mappings";
import { detectRecurring, nameKey, type TProposal, type TRecurringInput } from "./recurring-detector";

/** Past import charges that join the file's rows for recurring detection (a monthly statement holds one charge per series). */
const HISTORY_DAYS = 400;
const HISTORY_MAX_EVENTS = 20_000;

export type TPreview = { rows: TRowData[]; summary: TStoredSummary; proposals: TProposal[] };

export type TPreviewScope = {
  ownerId: string;
  businessId: string;
  projectId?: string;
  /** The owner's manual_import integration (none before the first confirmed import). */
  manualId: string | undefined;
  reconcile: boolean;
  /** The owner's today (proposals: a next charge is never before it). */
  today: string;
  mappingSource: TMappingSource;
  /** mappingSource saved: what the saved mapping was kept for (the import's account or the header's layout). */
  mappingSavedFor: TSavedMappingKind | null;
  /** The bank account the upload named (as written), or null. */
  account: string | null;
  currencyDefault: string | null;
};

export type TMappingSource = (typeof MAPPING_SOURCES)[number];

/** The preview of the parsed rows. */
export async function buildPreview(db: TDbOrTx, scope: TPreviewScope, parsed: TParsedStatement): Promise<TPreview> {
  const okRows = parsed.rows.filter((row): row is TOkRow => "external_id" in row);
  const stored = await storedImportIds(
    db,
    scope.manualId,
    okRows.map((row) => row.external_id),
  );
  const fresh = okRows.filter((row) => !stored.has(row.external_id));
  const reconciled = scope.reconcile
    ? await reconcileRows(db, { ownerId: scope.ownerId, businessId: scope.businessId }, fresh)
    : new Map<number, TMatchedEntry>();

  // The owner's category rules give a row without a category one (shown and editable before confirm).
  const rules = await loadCategoryRules(db, scope.ownerId);
  let wouldInsert = 0;
  let wouldDedupe = 0;
  let wouldReconcile = 0;
  const rows: TRowData[] = parsed.rows.map((row) => {
    if ("rejected" in row) return { row: row.row, status: "rejected", reject_reason: row.rejected, raw: row.raw };
    const rule = row.category ? null : categorize(rules, row);
    const ruled = rule ? ruleOutcome(rule, { businessId: scope.businessId, projectId: scope.projectId ?? null }) : null;
    const already = stored.get(row.external_id);
    const entry = already ? undefined : reconciled.get(row.row);
    if (already) wouldDedupe++;
    else wouldInsert++;
    if (entry) wouldReconcile++;
    return {
      row: row.row,
      status: already ? "already" : entry ? "reconciled" : "new",
      external_id: row.external_id,
      amount_minor: row.amount_minor,
      currency: row.currency,
      occurred_on: row.occurred_on,
      description: row.description,
      counterparty: row.counterparty,
      counterparty_account: row.counterparty_account,
      category: row.category ?? ruled?.category,
      project_id: ruled && ruled.projectId !== (scope.projectId ?? null) ? (ruled.projectId ?? undefined) : undefined,
      reference: row.reference,
      account: row.account,
      matched_event_id: already ?? entry?.id,
      matched_event: entry,
    };
  });

  const history = await pastImportCharges(db, scope, new Set(okRows.map((row) => row.external_id)));
  const proposals = await withoutTracked(db, scope, detectRecurring(okRows, { today: scope.today, history }));
  const rejections = rejectionsOf(rows);
  return {
    rows,
    summary: {
      total_rows: parsed.total_rows,
      would_insert: wouldInsert,
      would_dedupe: wouldDedupe,
      would_reconcile: wouldReconcile,
      rejected: rejections.listed,
      rejected_count: rejections.count,
      unmapped_columns: parsed.unmapped_columns,
      skipped_transfers: parsed.skipped_transfers,
      header: parsed.header,
      mapping: parsed.mapping,
      mapping_source: scope.mappingSource,
      mapping_saved_for: scope.mappingSource === "saved" ? scope.mappingSavedFor : null,
      account: scope.account,
      currency_default: scope.currencyDefault,
      format_guesses: parsed.guesses,
      ...(parsed.format ? { format: parsed.format } : {}),
      ...(parsed.balance_check ? { balance_check: parsed.balance_check } : {}),
    },
    proposals,
  };
}

/** external_id → the stored event of the owner's manual_import integration (one query). */
async function storedImportIds(db: TDbOrTx, integrationId: string | undefined, ids: string[]): Promise<Map<string, string>> {
  if (!integrationId || ids.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: string; external_id: string }>>`
    SELECT id::text AS id, external_id FROM financial_events
    WHERE integration_id = ${integrationId}::uuid AND external_id = ANY(${ids}::text[])`;
  return new Map(rows.map((row) => [row.external_id, row.id]));
}

/**
 * The earlier imported charges of the import's scope (expenses of the owner's manual_import
 * integration in the same business, and the same project when the import names one, over the
 * last 400 days, at most 20,000, one query), minus the rows of this file: statements uploaded
 * month by month still show their series. Never another business's charges: the manual_import
 * integration is the owner's, shared by all their businesses.
 */
async function pastImportCharges(db: TDbOrTx, scope: TPreviewScope, fileIds: Set<string>): Promise<TRecurringInput[]> {
  if (!scope.manualId) return [];
  const events = await db.financialEvent.findMany({
    where: {
      integrationId: scope.manualId,
      businessId: scope.businessId,
      ...(scope.projectId ? { projectId: scope.projectId } : {}),
      type: "expense",
      status: "confirmed",
      occurredOn: { gte: utcMidnightOf(addDays(scope.today, -HISTORY_DAYS)) },
    },
    select: { externalId: true, occurredOn: true, amountMinor: true, currency: true, description: true, payload: true },
    orderBy: [{ occurredOn: "desc" }, { id: "asc" }],
    take: HISTORY_MAX_EVENTS,
  });
  return events
    .filter((event) => !event.externalId || !fileIds.has(event.externalId))
    .map((event) => ({
      occurred_on: utcDayOf(event.occurredOn),
      amount_minor: -Number(event.amountMinor < 0n ? -event.amountMinor : event.amountMinor),
      currency: event.currency,
      description: event.description ?? "",
      counterparty: counterpartyOf(event.payload),
    }));
}

const ZCounterpartyPayload = z.object({ counterparty: z.string().optional() });

/** payload.counterparty of an imported line ("" when it has none). */
function counterpartyOf(payload: unknown): string {
  const parsed = ZCounterpartyPayload.safeParse(payload);
  return parsed.success ? (parsed.data.counterparty ?? "") : "";
}

/**
 * Drops proposals the business already tracks: a subscription (not cancelled) of the same
 * name, currency and interval in the import's business (another business paying the same
 * merchant tracks its own).
 */
async function withoutTracked(db: TDbOrTx, scope: TPreviewScope, proposals: TProposal[]): Promise<TProposal[]> {
  if (proposals.length === 0) return proposals;
  const existing = await db.subscription.findMany({
    where: {
      ownerId: scope.ownerId,
      businessId: scope.businessId,
      status: { not: "cancelled" },
      currency: { in: [...new Set(proposals.map((p) => p.currency))] },
    },
    select: { name: true, currency: true, billingInterval: true },
  });
  const tracked = new Set(existing.map((s) => `${nameKey(s.name)}|${s.currency}|${s.billingInterval}`));
  return proposals.filter((p) => !tracked.has(`${nameKey(p.name)}|${p.currency}|${p.billing_interval}`));
}

function rejectionsOf(rows: TRowData[]): { listed: TImportRejection[]; count: number } {
  const listed: TImportRejection[] = [];
  let count = 0;
  for (const row of rows) {
    if (row.status !== "rejected") continue;
    count++;
    if (listed.length < IMPORT_MAX_LISTED_REJECTIONS)
      listed.push({ row: row.row, external_id: row.external_id ?? null, reject_reason: row.reject_reason ?? "rejected" });
  }
  return { listed, count };
}
