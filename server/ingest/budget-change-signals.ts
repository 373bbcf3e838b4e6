// A budget_change_applied / budget_change_failed signal moves a planned ad budget change to
// applied (applied_at = the signal's occurred_at) or failed (failure.code platform_failed), in
// the signal ingest's transaction (pinned-wave2 §3.1). The change is the one ref.budget_change_id
// names, else the newest planned change of the signal's integration and ref.campaign_id. Set-based:
// one UPDATE and one audit INSERT for the whole batch. No notification of its own: the signal's
// alert announces it (§4.1).
// A budget signal that carries the campaign's daily budget (amount_minor and currency, with
// ref.campaign_id) is also the platform's report of that budget (pinned-wave3 §1.1): kept in
// campaign_budget_reports, one INSERT for the batch, where an agent's limit reads what is known.
import { randomUUID } from "node:crypto";
import type { TTx } from "../db/client";
import { auditRow } from "../audit/audit-row";
import { auditEntryData } from "../audit/audit-service";
import { PLAIN_VALUES } from "../db/value-form";

export const BUDGET_SIGNAL_STATUS: Record<string, "applied" | "failed"> = {
  budget_change_applied: "applied",
  budget_change_failed: "failed",
};
const PLATFORM_FAILED = "platform_failed";
const DEFAULT_FAILURE = "The platform did not apply the budget change.";

export type TBudgetSignal = {
  signalId: string;
  integrationId: string;
  code: string;
  occurredAt: Date;
  ref: Record<string, string> | null | undefined;
  message: string | null | undefined;
  /** The campaign's daily budget the platform reported with the signal, if any. */
  amountMinor: bigint | null;
  currency: string | null;
};

/** Moves the changes the batch's budget signals name; answers how many moved. */
export async function applyBudgetSignalsInTx(
  tx: TTx,
  ownerId: string,
  signals: readonly TBudgetSignal[],
  options: { now: Date; requestId?: string | null },
): Promise<number> {
  const budget = signals.filter((s) => BUDGET_SIGNAL_STATUS[s.code] && (s.ref?.budget_change_id || s.ref?.campaign_id));
  if (budget.length === 0) return 0;
  await recordBudgetReports(tx, ownerId, budget, options.now);
  // Each signal picks one planned change (by id, else the campaign's newest); a change two
  // signals pick moves once, by the earlier signal.
  const moved = await tx.$queryRaw<
    {
      id: string;
      status: string;
      campaign_id: string;
      signal_id: string;
      integration_id: string;
      failure_message: string | null;
    }[]
  >`
    WITH s AS (
      SELECT * FROM unnest(
        ${budget.map((s) => s.signalId)}::uuid[],
        ${budget.map((s) => s.integrationId)}::uuid[],
        ${budget.map((s) => s.ref?.budget_change_id ?? null)}::text[],
        ${budget.map((s) => s.ref?.campaign_id ?? null)}::text[],
        ${budget.map((s) => BUDGET_SIGNAL_STATUS[s.code]!)}::text[],
        ${budget.map((s) => s.occurredAt)}::timestamptz[],
        ${budget.map((s) => s.message ?? null)}::text[]
      ) AS s(signal_id, integration_id, change_id, campaign_id, status, occurred_at, message)
    ), picked AS (
      SELECT DISTINCT ON (c.id) c.id, s.signal_id, s.status, s.occurred_at, s.message
      FROM s CROSS JOIN LATERAL (
        SELECT c.id FROM ad_budget_changes c
        WHERE c.owner_id = ${ownerId}::uuid AND c.integration_id = s.integration_id AND c.status = 'planned'
          AND CASE WHEN s.change_id IS NOT NULL THEN c.id::text = s.change_id ELSE c.campaign_id = s.campaign_id END
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT 1
      ) c
      ORDER BY c.id, s.occurred_at, s.signal_id
    )
    UPDATE ad_budget_changes c
    SET status = p.status,
        applied_at = CASE WHEN p.status = 'applied' THEN p.occurred_at END,
        failure_code = CASE WHEN p.status = 'failed' THEN ${PLATFORM_FAILED} END,
        failure_message = CASE WHEN p.status = 'failed' THEN coalesce(p.message, ${DEFAULT_FAILURE}) END,
        updated_at = ${options.now}
    FROM picked p
    WHERE c.id = p.id AND c.status = 'planned'
    RETURNING c.id, c.status, c.campaign_id, p.signal_id, c.integration_id, c.failure_message`;
  if (moved.length === 0) return 0;
  await tx.auditEntry.createMany({
    data: moved.map((m) => ({
      ...auditEntryData(
        auditRow(PLAIN_VALUES, {
          ownerId,
          actor: { type: "integration", integrationId: m.integration_id },
          action: `ad_budget_change.${m.status}`,
          target: { type: "ad_budget_change", id: m.id },
          requestId: options.requestId ?? null,
          details: {
            signal_id: m.signal_id,
            campaign_id: m.campaign_id,
            ...(m.status === "failed" ? { failure: { code: PLATFORM_FAILED, message: m.failure_message } } : {}),
          },
        }),
      ),
      createdAt: options.now,
    })),
  });
  return moved.length;
}

/** The budgets the batch's budget signals reported for their campaigns (campaign_budget_reports). */
async function recordBudgetReports(tx: TTx, ownerId: string, signals: readonly TBudgetSignal[], now: Date): Promise<void> {
  const reports = signals.filter((s) => s.amountMinor !== null && s.currency !== null && s.ref?.campaign_id);
  if (reports.length === 0) return;
  await tx.campaignBudgetReport.createMany({
    data: reports.map((s) => ({
      id: randomUUID(),
      ownerId,
      integrationId: s.integrationId,
      campaignId: s.ref!.campaign_id!,
      dailyBudgetMinor: s.amountMinor!,
      currency: s.currency!,
      reportedAt: s.occurredAt,
      signalId: s.signalId,
      createdAt: now,
    })),
  });
}
