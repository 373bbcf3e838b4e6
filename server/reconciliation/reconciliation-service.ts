// The daily reconciliation of imported bank lines (contract: Import rules 7, States and
// transitions "import event", Signal codes "unreconciled", Limits "Reconciliation window").
//
// An import event (source IMPORT, on the owner's manual_import integration, actual, confirmed,
// not yet reconciled) is matched to at most one actual, confirmed event of the same owner
// from any other integration with
//   - the same amount_minor (absolute) and currency,
//   - the same direction of money (below),
//   - occurred_on at most RECONCILIATION_WINDOW_DAYS days apart,
//   - not already claimed by another import event (payload.reconciles_event_id).
// Import events are taken oldest first (occurred_on, created_at, id); each takes the closest
// date first, then the oldest created candidate. A match marks the import event reconciled
// (`reconciled = true`, payload.reconciled = true, payload.reconciles_event_id) — so it leaves
// every total (ledger/counted-total.ts) — and writes an audit entry `import.reconciled`
// (actor system). Then every import event still unmatched more than the window after its
// date raises the signal `unreconciled` (warning) once, through the signal ingest path, with
// external_id `unreconciled:<event id>`.
//
// Direction of money, the same rule on both sides (SQL `moneyDirection` below):
//   out: expense, ad_spend, recurring_expense, planned_expense, refund with direction "out"
//        (revenue paid back)
//   in:  revenue, refund with direction "in" (a cost paid back)
//   any other type (subscription_change, …) has no direction and never matches.
// The same rule (and absolute amounts) as the preview's matching at import time
// (server/imports/import-service.ts, directionOfEvent).
//
// Statements per owner, whatever the number of events, in one transaction: row locks of the
// owner's manual_import integration(s) (the lock the ingest path takes for that integration,
// so two runs — or a run and an import — never interleave) → candidate pairs → UPDATE the
// matched import events → INSERT audit entries → unmatched events due a signal → the signal
// path (three statements).
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { todayUtc } from "../fx/money";
import { ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { lockOwnerIntegrations } from "../integrations/integration-store";
import { MANUAL_IMPORT_PROVIDER } from "../integrations/providers";

/** Contract Limits: "Reconciliation window — 3 days, amount and currency match". */
export const RECONCILIATION_WINDOW_DAYS = 3;
export const UNRECONCILED_PREFIX = "unreconciled:";

export type TReconcileOptions = { now?: Date; ownerId?: string };
export type TReconcileResult = { matched: number; signaled: number };

type TCandidate = { import_id: string; event_id: string };
type TDue = {
  id: string;
  integration_id: string;
  business_id: string | null;
  amount_minor: string;
  currency: string;
  occurred_on: string;
};

/** Where an event's money goes: 'out', 'in' or NULL (never matches). */
const moneyDirection = (alias: "imp" | "ev") =>
  Prisma.raw(`CASE
    WHEN ${alias}.type IN ('expense', 'ad_spend', 'recurring_expense', 'planned_expense') THEN 'out'
    WHEN ${alias}.type = 'revenue' THEN 'in'
    WHEN ${alias}.type = 'refund' AND ${alias}.direction IN ('in', 'out') THEN ${alias}.direction
  END`);

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Reconciles every owner (or one), one transaction per owner. */
export async function reconcileImports(db: TDbOrTx, options: TReconcileOptions = {}): Promise<TReconcileResult> {
  const now = options.now ?? new Date();
  const ownerId = options.ownerId ?? null;
  const owners = await db.$queryRaw<Array<{ owner_id: string }>>`
    SELECT DISTINCT i.owner_id::text AS owner_id
      FROM integrations i
     WHERE i.provider = ${MANUAL_IMPORT_PROVIDER}
       AND (${ownerId}::uuid IS NULL OR i.owner_id = ${ownerId}::uuid)
       AND EXISTS (SELECT 1 FROM financial_events fe
                    WHERE fe.integration_id = i.id AND fe.source_type = 'IMPORT' AND fe.state = 'actual'
                      AND fe.status = 'confirmed' AND fe.reconciled = false)
     ORDER BY 1`;
  const total: TReconcileResult = { matched: 0, signaled: 0 };
  for (const { owner_id } of owners) {
    const result = await inTransaction(db, (tx) => reconcileOwnerInTx(tx, owner_id, now));
    total.matched += result.matched;
    total.signaled += result.signaled;
  }
  return total;
}

/** Greedy one-to-one assignment over candidate pairs already sorted by preference. */
export function assignMatches(candidates: readonly TCandidate[]): Map<string, string> {
  const byImport = new Map<string, string>();
  const taken = new Set<string>();
  for (const c of candidates) {
    if (byImport.has(c.import_id) || taken.has(c.event_id)) continue;
    byImport.set(c.import_id, c.event_id);
    taken.add(c.event_id);
  }
  return byImport;
}

async function reconcileOwnerInTx(tx: TTx, ownerId: string, now: Date): Promise<TReconcileResult> {
  // The same row locks as the ingest path takes for these integrations.
  const imports = await lockOwnerIntegrations(tx, ownerId, { provider: MANUAL_IMPORT_PROVIDER });
  const integrationIds = imports.map((i) => i.id);
  const importIds = integrationIds.join(",");

  // 1. Candidate pairs, best first: imports oldest first, then per import the closest date,
  //    then the oldest created integration event. Events already claimed are left out.
  const candidates = await tx.$queryRaw<TCandidate[]>`
    WITH claimed AS (
       SELECT jsonb_array_elements_text(
                CASE jsonb_typeof(c.payload->'reconciles_event_id')
                  WHEN 'array' THEN c.payload->'reconciles_event_id'
                  ELSE jsonb_build_array(c.payload->'reconciles_event_id') END) AS event_id
         FROM financial_events c
        WHERE c.owner_id = ${ownerId}::uuid AND c.status = 'confirmed' AND c.payload ? 'reconciles_event_id'
     )
     SELECT imp.id::text AS import_id, ev.id::text AS event_id
       FROM financial_events imp
       JOIN financial_events ev
         ON ev.owner_id = imp.owner_id
        AND abs(ev.amount_minor) = abs(imp.amount_minor)
        AND ev.currency = imp.currency
        AND ev.occurred_on BETWEEN imp.occurred_on - ${RECONCILIATION_WINDOW_DAYS}::int
                               AND imp.occurred_on + ${RECONCILIATION_WINDOW_DAYS}::int
        AND ev.state = 'actual' AND ev.status = 'confirmed'
        AND ev.source_type <> 'IMPORT'
       JOIN integrations ei ON ei.id = ev.integration_id AND ei.owner_id = imp.owner_id AND ei.provider <> ${MANUAL_IMPORT_PROVIDER}
      WHERE imp.owner_id = ${ownerId}::uuid
        AND imp.integration_id = ANY(string_to_array(${importIds}::text, ',')::uuid[])
        AND imp.source_type = 'IMPORT' AND imp.state = 'actual' AND imp.status = 'confirmed' AND imp.reconciled = false
        AND COALESCE(imp.payload->>'reconcile', 'true') <> 'false'
        AND (${moneyDirection("imp")}) = (${moneyDirection("ev")})
        AND ev.id::text NOT IN (SELECT event_id FROM claimed WHERE event_id IS NOT NULL)
      ORDER BY imp.occurred_on, imp.created_at, imp.id, abs(ev.occurred_on - imp.occurred_on), ev.created_at, ev.id`;
  const matches = [...assignMatches(candidates)].map(([import_id, event_id]) => ({ import_id, event_id }));

  // 2. Mark the matched import events (guarded: only those still unreconciled).
  type TMatched = { id: string; event_id: string; amount_minor: string; currency: string };
  let matched: TMatched[] = [];
  if (matches.length) {
    const assignments = JSON.stringify(matches);
    matched = await tx.$queryRaw<TMatched[]>`
      UPDATE financial_events fe
          SET reconciled = true,
              payload = COALESCE(fe.payload, '{}'::jsonb)
                        || jsonb_build_object('reconciled', true, 'reconciles_event_id', m.event_id),
              updated_at = ${now}
         FROM jsonb_to_recordset(${assignments}::jsonb) AS m(import_id uuid, event_id text)
        WHERE fe.id = m.import_id AND fe.reconciled = false AND fe.status = 'confirmed'
        RETURNING fe.id::text AS id, m.event_id, fe.amount_minor::text AS amount_minor, fe.currency`;
    if (matched.length)
      await tx.auditEntry.createMany({
        data: matched.map((m) => ({
          ownerId,
          actorType: "system",
          actorId: null,
          action: "import.reconciled",
          targetType: "event",
          targetId: m.id,
          details: { reconciles_event_id: m.event_id, amount_minor: Number(m.amount_minor), currency: m.currency },
          createdAt: now,
        })),
      });
  }

  // 3. Unmatched import events older than the window, without their signal yet.
  const cutoff = addDays(todayUtc(now), -RECONCILIATION_WINDOW_DAYS);
  const due = await tx.$queryRaw<TDue[]>`
    SELECT fe.id::text AS id, fe.integration_id::text AS integration_id, fe.business_id::text AS business_id,
            fe.amount_minor::text AS amount_minor, fe.currency, fe.occurred_on::text AS occurred_on
       FROM financial_events fe
      WHERE fe.owner_id = ${ownerId}::uuid
        AND fe.integration_id = ANY(string_to_array(${importIds}::text, ',')::uuid[])
        AND fe.source_type = 'IMPORT' AND fe.state = 'actual' AND fe.status = 'confirmed' AND fe.reconciled = false
        AND fe.occurred_on < ${cutoff}::date
        AND COALESCE(fe.payload->>'reconcile', 'true') <> 'false'
        AND NOT EXISTS (SELECT 1 FROM integration_signals s
                         WHERE s.integration_id = fe.integration_id AND s.external_id = ${UNRECONCILED_PREFIX} || fe.id::text)
      ORDER BY fe.occurred_on, fe.id`;
  let signaled = 0;
  if (due.length) {
    const signals: TIntegrationSignal[] = due.map((e) => ({
      integration_id: e.integration_id,
      external_id: `${UNRECONCILED_PREFIX}${e.id}`,
      code: "unreconciled",
      severity: "warning",
      occurred_at: now.toISOString(),
      ...(e.business_id ? { business_id: e.business_id } : {}),
      amount_minor: Number(e.amount_minor),
      currency: e.currency,
      ref: { type: "event", event_id: e.id, occurred_on: e.occurred_on },
      message: `The bank line of ${e.occurred_on} has no matching event after ${RECONCILIATION_WINDOW_DAYS} days.`,
    }));
    signaled = (await ingestSignals(tx, ownerId, signals, { now })).accepted;
  }
  return { matched: matched.length, signaled };
}
