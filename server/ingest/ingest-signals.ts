// The signal path: non-financial news from integrations (a payout failed, a campaign was
// paused). Each new signal becomes an audit entry `signal.<code>` (actor integration) and an
// alert `integration.<code>` whose ref is that audit entry; a repeat of (integration_id,
// external_id) changes nothing. No financial event is created. Each alert is also a
// notification (pinned-wave2 §4.1). A budget_change_applied / _failed signal also moves its
// planned ad budget change and keeps the budget it reports (budget-change-signals.ts). Four
// statements per batch, plus up to three for budget signals.
import { randomUUID } from "node:crypto";
import type { TTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { applyBudgetSignalsInTx } from "./budget-change-signals";
import { AppError } from "../errors/app-error";
import { alertMessage } from "./signal-messages";
import { auditRow } from "../audit/audit-row";
import { auditEntryData } from "../audit/audit-service";
import { PLAIN_VALUES } from "../db/value-form";
import { touchLastSync } from "../sources/integration-store";
import { createNotifications } from "../notifications/notification-outbox";
import { unstorable } from "./item-checks";
import { defaultSeverity, type TIntegrationSignal, type TRejectedItem, type TSignalResult } from "./ingest.schema";

export type TSignalOptions = {
  requestId?: string | null;
  now?: Date;
  /** Webhook deliveries: a bad signal is listed in `rejected` (index = its position) instead of refusing the call. */
  perItem?: boolean;
};

/**
 * Writes validated signals of one owner inside `tx`. The integration and business a signal
 * names must be the owner's, and its texts storable, else the whole call is refused
 * (validation_error), or with `perItem` that signal alone is rejected.
 */
export async function ingestSignalsInTx(
  tx: TTx,
  ownerId: string,
  allSignals: readonly TIntegrationSignal[],
  options: TSignalOptions = {},
): Promise<TSignalResult & { rejected: TRejectedItem[] }> {
  const rejected: TRejectedItem[] = [];
  if (allSignals.length === 0) return { accepted: 0, deduped: 0, rejected };
  const now = options.now ?? new Date();
  const integrationIds = [...new Set(allSignals.map((s) => s.integration_id))];
  const integrations = new Map(
    (
      await tx.integration.findMany({ where: { ownerId, id: { in: integrationIds } }, select: { id: true, businessId: true } })
    ).map((i) => [i.id, i]),
  );
  const businessOf = (s: TIntegrationSignal) => s.business_id ?? integrations.get(s.integration_id)?.businessId ?? null;
  const named = [...new Set(allSignals.flatMap((s) => (s.business_id ? [s.business_id] : [])))];
  const owned = new Set(
    named.length
      ? (await tx.business.findMany({ where: { ownerId, id: { in: named } }, select: { id: true } })).map((b) => b.id)
      : [],
  );
  const signals = allSignals.filter((s, n) => {
    const problem = !integrations.has(s.integration_id)
      ? { field: "integration_id", message: "no such integration" }
      : s.business_id && !owned.has(s.business_id)
        ? { field: "business_id", message: "no such business" }
        : storableProblem(s);
    if (!problem) return true;
    if (!options.perItem) throw AppError.invalidField(`signals.${n}.${problem.field}`, problem.message);
    rejected.push({
      index: n,
      external_id: s.external_id,
      code: "validation_error",
      message: `${problem.field}: ${problem.message}`,
    });
    return false;
  });

  const prepared = signals.map((s) => ({
    id: randomUUID(),
    auditEntryId: randomUUID(),
    alertId: randomUUID(),
    signal: s,
    severity: s.severity ?? defaultSeverity(s.code),
    businessId: businessOf(s),
  }));
  // ON CONFLICT DO NOTHING: only the new ones come back (a repeat inside the batch included).
  const accepted = await tx.integrationSignal.createManyAndReturn({
    data: prepared.map((p) => ({
      id: p.id,
      ownerId,
      integrationId: p.signal.integration_id,
      externalId: p.signal.external_id,
      code: p.signal.code,
      severity: p.severity,
      occurredAt: new Date(p.signal.occurred_at),
      businessId: p.businessId,
      amountMinor: p.signal.amount_minor === undefined ? null : BigInt(p.signal.amount_minor),
      currency: p.signal.currency ?? null,
      ref: (p.signal.ref ?? undefined) as Prisma.InputJsonObject | undefined,
      message: p.signal.message ?? null,
      auditEntryId: p.auditEntryId,
      alertId: p.alertId,
      createdAt: now,
    })),
    skipDuplicates: true,
    select: { id: true },
  });
  const acceptedIds = new Set(accepted.map((a) => a.id));
  const kept = prepared.filter((p) => acceptedIds.has(p.id));
  if (kept.length) {
    await tx.auditEntry.createMany({
      data: kept.map((p) => ({
        id: p.auditEntryId,
        ...auditEntryData(
          auditRow(PLAIN_VALUES, {
            ownerId,
            actor: { type: "integration", integrationId: p.signal.integration_id },
            action: `signal.${p.signal.code}`,
            target: { type: "integration_signal", id: p.id },
            requestId: options.requestId ?? null,
            details: {
              external_id: p.signal.external_id,
              severity: p.severity,
              occurred_at: p.signal.occurred_at,
              business_id: p.businessId,
              ...(p.signal.amount_minor !== undefined
                ? { amount_minor: p.signal.amount_minor, currency: p.signal.currency! }
                : {}),
              ...(p.signal.ref ? { ref: p.signal.ref } : {}),
              ...(p.signal.message ? { message: p.signal.message } : {}),
            },
          }),
        ),
        createdAt: now,
      })),
    });
    await tx.alert.createMany({
      data: kept.map((p) => ({
        id: p.alertId,
        ownerId,
        businessId: p.businessId,
        integrationId: p.signal.integration_id,
        code: `integration.${p.signal.code}`,
        severity: p.severity,
        message: p.signal.message ?? alertMessage(p.signal.code),
        amountMinor: p.signal.amount_minor === undefined ? null : BigInt(p.signal.amount_minor),
        currency: p.signal.currency ?? null,
        refType: "audit_entry",
        refId: p.auditEntryId,
        occurredAt: new Date(p.signal.occurred_at),
        createdAt: now,
      })),
    });
    // A budget signal moves its planned ad budget change; its alert is the announcement (§4.1).
    await applyBudgetSignalsInTx(
      tx,
      ownerId,
      kept.map((p) => ({
        signalId: p.id,
        integrationId: p.signal.integration_id,
        code: p.signal.code,
        occurredAt: new Date(p.signal.occurred_at),
        ref: p.signal.ref,
        message: p.signal.message,
        amountMinor: p.signal.amount_minor === undefined ? null : BigInt(p.signal.amount_minor),
        currency: p.signal.currency ?? null,
      })),
      { now, requestId: options.requestId },
    );
    // Every alert is also a notification, in the same transaction and in one statement.
    await createNotifications(
      tx,
      ownerId,
      kept.map((p) => ({
        code: `integration.${p.signal.code}`,
        severity: p.severity,
        title: alertMessage(p.signal.code),
        body: p.signal.message ?? alertMessage(p.signal.code),
        ref: { type: "alert", id: p.alertId },
      })),
      now,
    );
  }
  await touchLastSync(tx, integrationIds, now);
  return { accepted: kept.length, deduped: signals.length - kept.length, rejected };
}

/** What PostgreSQL would refuse in one signal (a NUL byte, a lone surrogate), found before the batch INSERT. */
function storableProblem(signal: TIntegrationSignal): { field: string; message: string } | null {
  for (const field of ["external_id", "message", "ref"] as const) {
    const problem = unstorable(signal[field], field);
    if (problem) return { field, message: problem.slice(problem.indexOf(": ") + 2) };
  }
  return null;
}
