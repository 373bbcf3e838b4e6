// One round of the events path against the database: load what the round names, plan it
// (round-plan.ts), run the plan's statements. A fixed set of statements whatever the round's
// size: the stored versions of its keys, their chains (when some are stored), the events it
// names by id (when any) → INSERT events with their audit entries → UPDATE voided → UPDATE
// fulfilled → INSERT the voids' and fulfilments' audit entries (each only when needed).
import type { TTx } from "../db/client";
import { insertAuditEntries, insertEvents } from "./bulk-insert";
import {
  planRound,
  roundLookups,
  type ChainIndex,
  type TItem,
  type TPlanContext,
  type TRoundLookups,
  type TRoundPlan,
  type TStored,
} from "./round-plan";

const STORED_FIELDS = {
  id: true,
  integrationId: true,
  externalId: true,
  chainExternalId: true,
  amountMinor: true,
  currency: true,
  status: true,
  type: true,
  state: true,
  sourceType: true,
  reconciled: true,
  fulfilledByEventId: true,
} as const;

/**
 * The stored events of these keys: one probe of the unique (integration_id, external_id) index
 * per key. LATERAL … LIMIT 1 keeps it a probe whatever the statistics say: written as
 * `integration_id = $1 AND external_id = ANY($2)`, a table PostgreSQL had not analysed yet was
 * read through all of the integration's rows (12 ms at 32,500 rows, growing with them). Raw
 * because Prisma serialises an IN list value by value.
 */
export const STORED_BY_KEYS = `
  SELECT e.* FROM unnest($1::uuid[], $2::text[]) AS k(integration_id, external_id)
  CROSS JOIN LATERAL (
    SELECT f.id, f.integration_id, f.external_id, f.chain_external_id, f.amount_minor, f.currency, f.status, f.type,
           f.state, f.source_type, f.reconciled, f.fulfilled_by_event_id
    FROM financial_events f
    WHERE f.integration_id = k.integration_id AND f.external_id = k.external_id
    LIMIT 1
  ) e`;

type TStoredRow = {
  id: string;
  integration_id: string | null;
  external_id: string | null;
  chain_external_id: string | null;
  amount_minor: bigint | number | string;
  currency: string;
  status: string;
  type: string;
  state: string;
  source_type: string;
  reconciled: boolean;
  fulfilled_by_event_id: string | null;
};

async function findStoredByKeys(tx: TTx, keys: Map<string, Set<string>>): Promise<TStored[]> {
  const integrationIds: string[] = [];
  const externalIds: string[] = [];
  for (const [integrationId, ids] of keys) {
    for (const externalId of ids) {
      integrationIds.push(integrationId);
      externalIds.push(externalId);
    }
  }
  if (externalIds.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<TStoredRow[]>(STORED_BY_KEYS, integrationIds, externalIds);
  return rows.map((r) => ({
    id: r.id,
    integrationId: r.integration_id,
    externalId: r.external_id,
    chainExternalId: r.chain_external_id,
    amountMinor: BigInt(r.amount_minor),
    currency: r.currency,
    status: r.status,
    type: r.type,
    state: r.state,
    sourceType: r.source_type,
    reconciled: r.reconciled,
    fulfilledByEventId: r.fulfilled_by_event_id,
  }));
}

/** Adds the stored versions of the round's keys, and the rest of their chains, to `chains`; answers the events named by id. */
async function loadRound(tx: TTx, ownerId: string, lookups: TRoundLookups, chains: ChainIndex): Promise<Map<string, TStored>> {
  const named = await findStoredByKeys(tx, lookups.keys);
  const roots = new Map<string, Set<string>>();
  for (const r of named) {
    if (!r.chainExternalId || !r.integrationId) continue;
    const set = roots.get(r.integrationId) ?? new Set<string>();
    set.add(r.chainExternalId);
    roots.set(r.integrationId, set);
  }
  if (roots.size) {
    const versions = await tx.financialEvent.findMany({
      where: { OR: [...roots].map(([integrationId, ids]) => ({ integrationId, chainExternalId: { in: [...ids] } })) },
      select: STORED_FIELDS,
    });
    for (const row of versions) chains.add(row);
  }
  for (const row of named) chains.add(row);
  if (!lookups.eventIds.size) return new Map();
  const events = await tx.financialEvent.findMany({
    where: { ownerId, id: { in: [...lookups.eventIds] } },
    select: STORED_FIELDS,
  });
  return new Map(events.map((r) => [r.id, r]));
}

/** Runs a round's plan: each statement once, and only when the plan has rows for it. */
async function writePlan(
  tx: TTx,
  ownerId: string,
  plan: TRoundPlan,
  options: { now: Date; requestId: string | null; auditInserts: boolean },
): Promise<void> {
  await insertEvents(tx, ownerId, options.now, plan.inserts, options.auditInserts ? { requestId: options.requestId } : false);
  if (plan.voids.length) {
    await tx.financialEvent.updateMany({
      where: { id: { in: plan.voids.map((v) => v.eventId) }, status: "confirmed" },
      // updated_at at the round's clock: it is also when the event stopped counting (uncounted_at).
      data: { status: "voided", updatedAt: options.now },
    });
  }
  if (plan.fulfilments.length) {
    // One statement for every fulfilment of the round (bigints travel as exact text).
    await tx.$executeRaw`
      UPDATE financial_events f
      SET fulfilled_by_event_id = u.by_id, variance_minor = u.variance, updated_at = ${options.now}
      FROM unnest(
        ${plan.fulfilments.map((x) => x.plannedId)}::uuid[],
        ${plan.fulfilments.map((x) => x.eventId)}::uuid[],
        ${plan.fulfilments.map((x) => String(x.variance))}::bigint[]
      ) AS u(id, by_id, variance)
      WHERE f.id = u.id`;
  }
  await insertAuditEntries(tx, options.now, plan.audits);
}

/** Loads, plans and writes one round; answers its plan (its counts and rejections). */
export async function runRound(
  tx: TTx,
  round: readonly TItem[],
  chains: ChainIndex,
  ctx: TPlanContext & { now: Date; auditInserts: boolean },
): Promise<TRoundPlan> {
  const events = await loadRound(tx, ctx.ownerId, roundLookups(round), chains);
  const plan = planRound(round, { chains, events }, ctx);
  await writePlan(tx, ctx.ownerId, plan, ctx);
  return plan;
}
