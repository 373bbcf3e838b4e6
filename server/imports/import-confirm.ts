// POST /v1/imports/{id}/confirm (contract: Import rules 4-5): all or nothing in ONE transaction.
// The preview is claimed (previewed → confirmed), the owner's manual_import integration created
// on the first import and locked, the preview's matches asked again (import-reconcile.ts
// confirmMatches; rows in keep_separate are written unreconciled and kept out of the daily
// reconciliation), the stored rows written as events through the ingest path in chunks,
// the accepted proposals created as subscriptions, and one audit entry written; rejected rows
// also raise an import.rows_rejected notification.
import { auditCaller } from "../audit/audit-service";
import { cashExternalId, upsertCashSnapshots, type TCashSnapshotWrite } from "../cash/cash-service";
import { isBankFormat } from "./formats/bank-statement";
import type { TCaller } from "../auth/caller";
import { AppError } from "../errors/app-error";
import type { TDbOrTx, TTx } from "../db/client";
import { ingestEventsInTx } from "../ingest/ingest-events";
import { createNotifications } from "../notifications/notification-outbox";
import { lockOwnerIntegrations } from "../sources/integration-store";
import { createSubscription } from "../subscriptions/subscription-service";
import { IMPORT_PAGE_ROWS, type TConfirmImportInput, type TImportRejection, type TImportResult } from "./import.schema";
import type { TRowData } from "./import-rows";
import { inImportTransaction, requireImport, rowsOfPages, statusOf, type TStoredImport } from "./import-store";
import { confirmMatches } from "./import-reconcile";
import { ensureManualIntegration } from "./manual-integration";
import { saveMapping } from "./saved-mappings";

/** Events per ingest call inside the confirm's transaction (bind-parameter limits). */
export const INGEST_CHUNK = 2000;

/**
 * The closing balance of each account of a bank statement as a cash snapshot (pinned-wave3 §3):
 * source IMPORT, as_of the closing day at 00:00 UTC, one per scope, account and day
 * (import:<account>:<day>; a re-import of that day keeps the stored one). A snapshot the cash
 * rules refuse (no rate for its currency) is reported, never failing the confirm.
 */
async function closingBalances(
  tx: TTx,
  caller: TCaller,
  record: TStoredImport,
  integrationId: string,
  now: Date,
): Promise<TImportResult["cash_snapshots"]> {
  const checks = (record.summary.balance_check ?? []).filter((c) => c.closing_minor !== null && c.closing_on && c.account);
  if (checks.length === 0) return undefined;
  const writes: TCashSnapshotWrite[] = checks.map((check) => {
    const asOf = new Date(`${check.closing_on}T00:00:00.000Z`);
    return {
      business_id: record.businessId,
      amount_minor: check.closing_minor!,
      currency: check.currency,
      as_of: asOf,
      payload: { account_id: check.account.slice(0, 128) },
      provenance: {
        source: {
          type: "IMPORT",
          integration_id: integrationId,
          external_id: cashExternalId("import", check.account.slice(0, 128), asOf),
        },
      },
    };
  });
  const written = await upsertCashSnapshots(tx, caller.ownerId, writes, {
    now,
    audit: { actor: caller.actor, requestId: caller.requestId },
  });
  return checks.map((check, index) => {
    const item = written.items.find((i) => i.index === index);
    const refusal = written.rejected.find((r) => r.index === index);
    return {
      account: check.account,
      currency: check.currency,
      amount_minor: check.closing_minor!,
      as_of: `${check.closing_on}T00:00:00.000Z`,
      outcome: item && item.outcome !== "rejected" ? item.outcome : "rejected",
      ...(refusal ? { reason: `${refusal.code}: ${refusal.message}` } : {}),
    };
  });
}

/** 409 state_conflict unless the preview can still be confirmed. */
function assertConfirmable(row: { status: string; expiresAt: Date; confirmedAt: Date | null }, now: Date): void {
  const status = statusOf(row, now);
  if (status === "confirmed" || status === "reverted") {
    throw new AppError("state_conflict", `This import is already ${status}.`, {
      details: { status, confirmed_at: row.confirmedAt?.toISOString() ?? null },
    });
  }
  if (status === "expired") {
    throw new AppError("state_conflict", "This preview expired (one hour after the upload); upload the statement again.", {
      details: { status, expires_at: row.expiresAt.toISOString() },
    });
  }
}

/** JSON equality that ignores key order and undefined members. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * POST /v1/imports/{id}/confirm: all or nothing in one transaction — the import claimed
 * (previewed → confirmed), the manual_import integration (first import), the events through
 * the ingest path in chunks, the accepted proposals' subscriptions, one audit entry.
 */
export async function confirmImport(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TConfirmImportInput,
  now: Date = new Date(),
): Promise<TImportResult> {
  const { ownerId } = caller;
  const record = await requireImport(db, ownerId, id);
  assertConfirmable(record, now);
  // The rows confirmed are the rows previewed: the mapping as sent for the last preview, or that
  // preview's effective mapping, is accepted; another one must be previewed first.
  if (
    input.mapping !== undefined &&
    canonical(input.mapping) !== canonical(record.mapping) &&
    (record.summary.mapping === undefined || canonical(input.mapping) !== canonical(record.summary.mapping))
  ) {
    throw AppError.invalidField(
      "mapping",
      "differs from the mapping of the last preview; preview it first with POST /v1/imports/{id}/preview, then confirm",
    );
  }
  const { proposals } = record;
  const accepted = [...new Set(input.accept_proposals ?? [])];
  for (const index of accepted) {
    if (index >= proposals.length) {
      throw AppError.invalidField(
        "accept_proposals",
        `${index} is not an index of preview.proposals (${proposals.length} proposal${proposals.length === 1 ? "" : "s"})`,
      );
    }
  }
  const excluded = new Set(input.exclude_external_ids ?? []);
  const keptSeparate = new Set(input.keep_separate ?? []);
  for (const row of keptSeparate) {
    if (row > record.totalRows) {
      throw AppError.invalidField("keep_separate", `${row} is not a row of the file (rows 1 to ${record.totalRows})`);
    }
  }
  const edits = await categoryEdits(db, ownerId, record.businessId, input.categories);

  return inImportTransaction(db, async (tx) => {
    // Claim the preview: a concurrent or later confirm finds nothing to claim.
    const claimed = await tx.import.updateMany({
      where: { id: record.id, ownerId, status: "previewed", expiresAt: { gt: now } },
      data: { status: "confirmed", confirmedAt: now },
    });
    if (claimed.count === 0) {
      assertConfirmable((await tx.import.findFirst({ where: { id: record.id, ownerId } })) ?? record, now);
      throw new AppError("state_conflict", "This import cannot be confirmed now.");
    }

    const integration = await ensureManualIntegration(tx, ownerId, record.businessId);
    const { reconcile } = record.settings;
    // The lock of every writer of bank lines, taken before the matches are asked again: two
    // confirms (or a confirm and the daily job) never give one event to two lines.
    await lockOwnerIntegrations(tx, ownerId, { ids: [integration.id] });
    const matches = await confirmMatches(tx, {
      ownerId,
      businessId: record.businessId,
      importId: record.id,
      wouldReconcile: record.summary.would_reconcile,
      skip: (row, externalId) => keptSeparate.has(row) || excluded.has(externalId),
    });
    const rejected: TImportRejection[] = [];
    let inserted = 0;
    let deduped = 0;
    let reconciled = 0;
    // Pages are read and ingested a few at a time, so a 100,000-row statement is never held
    // in memory as events all at once.
    const pagesPerChunk = Math.max(1, Math.floor(INGEST_CHUNK / IMPORT_PAGE_ROWS));
    for (let firstPage = 0; ; firstPage += pagesPerChunk) {
      const pages = await tx.importRowPage.findMany({
        where: { importId: record.id, pageNo: { gte: firstPage, lt: firstPage + pagesPerChunk } },
        orderBy: { pageNo: "asc" },
      });
      if (pages.length === 0) break;
      const rowOf = new Map<string, number>();
      const events: Array<Record<string, unknown>> = [];
      const reconciling: string[] = [];
      for (const row of rowsOfPages(pages)) {
        if (row.status === "rejected") {
          rejected.push({ row: row.row, external_id: null, reject_reason: row.reject_reason ?? "rejected" });
          continue;
        }
        if (!row.external_id || excluded.has(row.external_id)) continue;
        rowOf.set(row.external_id, row.row);
        const link: TLineLink = keptSeparate.has(row.row)
          ? { keptSeparateFrom: row.status === "reconciled" ? (row.matched_event_id ?? null) : null }
          : { reconciles: matches.get(row.row) };
        if ("reconciles" in link && link.reconciles) reconciling.push(row.external_id);
        events.push(statementEvent(withEdit(row, edits.get(row.external_id)), record, integration.id, reconcile, link));
      }
      // The rows were categorised at preview (rules, then the owner's edits): ingest keeps them as they are.
      const result = await ingestEventsInTx(tx, ownerId, events, {
        requestId: caller.requestId,
        auditInserts: "none",
        categorize: false,
      });
      inserted += result.inserted;
      deduped += result.deduped;
      if (reconciling.length)
        reconciled += await tx.financialEvent.count({
          where: { integrationId: integration.id, externalId: { in: reconciling }, reconciled: true },
        });
      for (const refusal of result.rejected) {
        rejected.push({
          row: (refusal.external_id && rowOf.get(refusal.external_id)) || 0,
          external_id: refusal.external_id,
          reject_reason: `${refusal.code}: ${refusal.message ?? ""}`.trim(),
        });
      }
    }

    const subscriptionsCreated: string[] = [];
    for (const index of accepted) {
      const proposal = proposals[index]!;
      const subscription = await createSubscription(
        tx,
        caller,
        {
          ...(record.projectId ? { project_id: record.projectId } : { business_id: record.businessId }),
          name: (proposal.name || proposal.counterparty || "Recurring charge").slice(0, 200),
          amount_minor: proposal.amount_minor,
          currency: proposal.currency,
          billing_interval: proposal.billing_interval,
          next_charge_on: proposal.next_charge_on,
        },
        {
          source_type: "IMPORT",
          confidence: proposal.confidence,
          provenance: {
            source: { type: "IMPORT", integration_id: integration.id, external_id: null },
            import_id: record.id,
            proposal_index: index,
            occurrences: proposal.occurrences,
          },
        },
      );
      subscriptionsCreated.push(subscription.id);
    }

    rejected.sort((a, b) => a.row - b.row);
    const cashSnapshots = await closingBalances(tx, caller, record, integration.id, now);
    const result: TImportResult = {
      inserted,
      deduped,
      reconciled,
      rejected,
      proposals,
      subscriptions_created: subscriptionsCreated,
      ...(cashSnapshots ? { cash_snapshots: cashSnapshots } : {}),
    };
    await auditCaller(
      tx,
      caller,
      "import.confirmed",
      { type: "import", id: record.id },
      {
        integration_id: integration.id,
        inserted,
        deduped,
        reconciled,
        rejected: rejected.length,
        excluded: excluded.size,
        kept_separate: keptSeparate.size,
        subscriptions_created: subscriptionsCreated.length,
        cash_snapshots: cashSnapshots?.filter((c) => c.outcome === "created" || c.outcome === "replaced").length ?? 0,
        mapping_saved: Boolean(record.signature && record.summary.mapping),
        mapping_saved_for_account: Boolean(record.settings.account && record.summary.mapping && record.summary.header),
      },
    );
    if (rejected.length > 0) {
      // import.rows_rejected (info), in the confirm's transaction (pinned-wave2 §4.1).
      const rows = rejected.length === 1 ? "1 row was" : `${rejected.length} rows were`;
      await createNotifications(
        tx,
        ownerId,
        [
          {
            code: "import.rows_rejected",
            severity: "info",
            title: `Import confirmed: ${rows} rejected`,
            body:
              `${record.fileName ? `${record.fileName}: ` : ""}${inserted} inserted, ${deduped} already known, ` +
              `${rows} rejected and not imported. Open the import to see why each row was rejected.`,
            ref: { type: "import", id: record.id },
          },
        ],
        now,
      );
    }
    // The file is not kept once confirmed; the mapping is kept for this layout's next upload, and
    // for the next statement of the bank account the upload named.
    await tx.import.update({ where: { id: record.id }, data: { result, source: null } });
    const { mapping, header } = record.summary;
    // A bank statement is read by its standard: no mapping to keep.
    if (mapping && header && !isBankFormat(record.summary.format)) {
      const saved = {
        ownerId,
        businessId: record.businessId,
        header,
        mapping,
        currencyDefault: record.settings.currency_default,
      };
      if (record.signature) await saveMapping(tx, { ...saved, kind: "layout", signature: record.signature });
      if (record.settings.account) await saveMapping(tx, { ...saved, kind: "account", account: record.settings.account });
    }
    return result;
  });
}

/**
 * How a line is linked: the event it reconciles (the match asked again at confirm), or kept
 * separate by the owner (from the event the preview matched, if any).
 */
type TLineLink = { reconciles: string | undefined } | { keptSeparateFrom: string | null };

/** A statement row as the ingest path takes it: money out is an expense, money in a revenue. */
function statementEvent(
  row: TRowData,
  record: Pick<TStoredImport, "id" | "businessId" | "projectId">,
  integrationId: string,
  reconcile: boolean,
  link: TLineLink,
): Record<string, unknown> {
  const kept = "keptSeparateFrom" in link;
  const amount = row.amount_minor!;
  return {
    integration_id: integrationId,
    external_id: row.external_id,
    type: amount < 0 ? "expense" : "revenue",
    state: "actual",
    amount_minor: Math.abs(amount),
    currency: row.currency,
    occurred_on: row.occurred_on,
    business_id: record.businessId,
    ...(record.projectId ? { project_id: record.projectId } : row.project_id ? { project_id: row.project_id } : {}),
    ...(row.category ? { category: row.category } : {}),
    description: row.description,
    source_type: "IMPORT",
    payload: {
      batch_id: record.id,
      row: row.row,
      ...(row.counterparty ? { counterparty: row.counterparty } : {}),
      ...(row.counterparty_account ? { counterparty_account: row.counterparty_account } : {}),
      ...(row.reference ? { reference: row.reference } : {}),
      ...(row.account ? { account: row.account } : {}),
      ...("reconciles" in link && link.reconciles ? { reconciles_event_id: link.reconciles } : {}),
      ...(kept && link.keptSeparateFrom ? { kept_separate_from: link.keptSeparateFrom } : {}),
      // reconcile=false: the owner keeps these lines out of the daily reconciliation too (the
      // whole upload, or this row: "not the same" as the event it was matched to).
      ...(reconcile && !kept ? {} : { reconcile: false }),
    },
  };
}

type TCategoryEdit = { category: string | null; project_id?: string | null };

/**
 * The owner's per-row category edits (confirm's `categories`), by external_id. A project must be
 * one of the import's business (another owner's, or another business's: 404 not_found).
 */
async function categoryEdits(
  db: TDbOrTx,
  ownerId: string,
  businessId: string,
  edits: TConfirmImportInput["categories"],
): Promise<Map<string, TCategoryEdit>> {
  const byId = new Map<string, TCategoryEdit>();
  if (!edits?.length) return byId;
  const projectIds = [...new Set(edits.flatMap((edit) => (edit.project_id ? [edit.project_id] : [])))];
  if (projectIds.length) {
    const found = await db.project.count({ where: { ownerId, businessId, id: { in: projectIds } } });
    if (found !== projectIds.length) throw AppError.notFound("project");
  }
  for (const edit of edits) byId.set(edit.external_id, { category: edit.category || null, project_id: edit.project_id });
  return byId;
}

/** A stored row with the owner's edit applied (omitted project_id: as previewed). */
function withEdit(row: TRowData, edit: TCategoryEdit | undefined): TRowData {
  if (!edit) return row;
  const edited: TRowData = { ...row, category: edit.category ?? undefined };
  if (edit.project_id !== undefined) edited.project_id = edit.project_id ?? undefined;
  return edited;
}
