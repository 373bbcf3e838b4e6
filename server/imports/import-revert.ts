// POST /v1/imports/{id}/revert (additive, issue 32; pinned-wave3 §1.2): a confirmed import undone.
// Every event it wrote that is still confirmed is voided (a line the owner corrected since is
// voided already and its correction is theirs: skipped, as is a line they voided), the links of
// its reconciled lines are removed (the events they matched always counted, and are free to be
// matched again), the subscriptions it created are left (listed in the answer), and one audit
// entry import.reverted records the counts. The import's status becomes reverted; a second
// revert answers 409 state_conflict. The voided lines give up their external_ids, so the same
// statement can be imported again (into the right business, with the right mapping).
//
// Atomic: ONE transaction (the request's, under its Idempotency-Key), claimed first (confirmed →
// reverted) so two reverts never both run, under the lock every writer of bank lines takes (the
// confirm, the daily job, the ledger's fixes). A restart in the middle rolls it all back and the
// import stays confirmed, so the same request sent again reverts it whole. Set-based: the voids
// are one UPDATE whatever the import's size (60,000 lines: about a second on PostgreSQL), the
// skipped lines one read and their reasons one more.
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx, TTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { lockOwnerIntegrations } from "../sources/integration-store";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";
import { IMPORT_MAX_LISTED_SKIPS, type TImportRevertResult } from "./import.schema";
import { inImportTransaction, requireImport, statusOf } from "./import-store";
import { findManualIntegration } from "./manual-integration";

type TSkipped = TImportRevertResult["skipped"][number];

/** What a reverted line's external_id ends with (then the import's id). */
export const REVERTED_SUFFIX = "~reverted:";

/** 409 state_conflict unless the import is confirmed (previewed and expired ones wrote nothing; reverted ones are done). */
function assertRevertable(row: { status: string; expiresAt: Date; revertedAt: Date | null }, now: Date): void {
  const status = statusOf(row, now);
  if (status === "confirmed") return;
  throw new AppError(
    "state_conflict",
    status === "reverted"
      ? "This import is already reverted; its events are voided."
      : "This import was never confirmed, so it wrote nothing to revert.",
    { details: { status, ...(row.revertedAt ? { reverted_at: row.revertedAt.toISOString() } : {}) } },
  );
}

/** The import's lines voided before the revert (by the owner), oldest row first: the listed ones and how many in all. */
async function skippedLines(
  tx: TTx,
  scope: { ownerId: string; integrationId: string; importId: string },
): Promise<{ listed: TSkipped[]; count: number }> {
  const { ownerId, integrationId, importId } = scope;
  const rows = await tx.$queryRaw<Array<{ id: string; total: number }>>`
    SELECT fe.id::text AS id, (count(*) OVER ())::int AS total
      FROM financial_events fe
     WHERE fe.integration_id = ${integrationId}::uuid AND fe.source_type = 'IMPORT'
       AND fe.payload->>'batch_id' = ${importId} AND fe.status <> 'confirmed'
     ORDER BY fe.payload->'row', fe.id
     LIMIT ${IMPORT_MAX_LISTED_SKIPS}`;
  if (rows.length === 0) return { listed: [], count: 0 };
  // A line the owner corrected is superseded by its correction (event-fixes.ts).
  const corrected = await tx.financialEvent.findMany({
    where: { ownerId, supersedesEventId: { in: rows.map((r) => r.id) } },
    select: { supersedesEventId: true },
  });
  const correctedIds = new Set(corrected.map((c) => c.supersedesEventId));
  return {
    listed: rows.map((r) => ({ event_id: r.id, reason: correctedIds.has(r.id) ? "corrected" : "voided" })),
    count: rows[0]!.total,
  };
}

export async function revertImport(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  now: Date = caller.now,
): Promise<TImportRevertResult> {
  const { ownerId } = caller;
  const record = await requireImport(db, ownerId, id);
  assertRevertable(record, now);

  return inImportTransaction(db, async (tx) => {
    const claimed = await tx.import.updateMany({
      where: { id: record.id, ownerId, status: "confirmed" },
      data: { status: "reverted", revertedAt: now },
    });
    if (claimed.count === 0) {
      assertRevertable((await tx.import.findFirst({ where: { id: record.id, ownerId } })) ?? record, now);
      throw new AppError("state_conflict", "This import cannot be reverted now.");
    }
    // A confirmed import created it; the lock is the one every writer of bank lines takes.
    const integration = await findManualIntegration(tx, ownerId);
    await lockOwnerIntegrations(tx, ownerId, { provider: MANUAL_IMPORT_PROVIDER });
    const skipped = integration
      ? await skippedLines(tx, { ownerId, integrationId: integration.id, importId: record.id })
      : { listed: [], count: 0 };

    // One UPDATE: the lines still confirmed voided; a reconciled one loses its link (kept aside in
    // payload.reverted_reconciles_event_id for the record); each gives up its external_id (kept
    // with a suffix naming this import), so the same statement can be imported again, into the
    // right business or with the right mapping. Lines the owner corrected or voided keep theirs: a
    // re-import finds them already imported and leaves them as the owner left them.
    const suffix = `${REVERTED_SUFFIX}${record.id}`;
    const [counts] = integration
      ? await tx.$queryRaw<Array<{ voided: number; unlinked: number }>>`
          WITH voided AS (
            UPDATE financial_events fe
               SET status = 'voided',
                   reconciled = false,
                   external_id = fe.external_id || ${suffix},
                   chain_external_id = fe.external_id || ${suffix},
                   payload = CASE WHEN fe.reconciled
                                  THEN (fe.payload - 'reconciled' - 'reconciles_event_id')
                                       || jsonb_build_object('reverted_reconciles_event_id', fe.payload->'reconciles_event_id')
                                  ELSE fe.payload END,
                   updated_at = ${now}
             WHERE fe.integration_id = ${integration.id}::uuid AND fe.owner_id = ${ownerId}::uuid
               AND fe.source_type = 'IMPORT' AND fe.payload->>'batch_id' = ${record.id}
               AND fe.status = 'confirmed'
            RETURNING fe.payload ? 'reverted_reconciles_event_id' AS unlinked
          )
          SELECT count(*)::int AS voided, count(*) FILTER (WHERE unlinked)::int AS unlinked FROM voided`
      : [];
    const voided = counts?.voided ?? 0;
    const reconciliationsUndone = counts?.unlinked ?? 0;
    const subscriptionsKept = record.result?.subscriptions_created ?? [];

    await auditCaller(
      tx,
      caller,
      "import.reverted",
      { type: "import", id: record.id },
      {
        voided,
        skipped: skipped.count,
        reconciliations_undone: reconciliationsUndone,
        subscriptions_kept: subscriptionsKept.length,
      },
    );
    return {
      import_id: record.id,
      voided,
      skipped: skipped.listed,
      skipped_count: skipped.count,
      reconciliations_undone: reconciliationsUndone,
      subscriptions_kept: subscriptionsKept,
      reverted_at: now.toISOString(),
    };
  });
}
