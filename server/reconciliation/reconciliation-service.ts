// The daily reconciliation of imported bank lines (contract: Import rules 7, States and
// transitions "import event", Signal codes "unreconciled", Limits "Reconciliation window").
//
// Matching. The open lines (import events: source IMPORT, on the owner's manual_import
// integration, actual, confirmed, not yet reconciled, not uploaded with reconcile=false nor kept
// separate at confirm) are paired with the owner's integration events and hand entries (entries
// of the line's business) by the matching rule (matching-rule.ts: the
// candidates, the key, the window, the line order and the candidate order), the one the import
// preview applies too. A match marks the import event reconciled (`reconciled = true`,
// payload.reconciled = true, payload.reconciles_event_id) — so it leaves every total
// (ledger/counted-total.ts) — and writes an audit entry `import.reconciled` (actor system).
//
// Direction of money, the same rule (and absolute amounts) on both sides: lib/money-direction.ts,
// here in SQL (moneyDirectionSql), in the preview (server/imports/import-reconcile.ts) in TypeScript:
//   out: expense, ad_spend, recurring_expense, planned_expense, refund with direction "out"
//        (revenue paid back)
//   in:  revenue, refund with direction "in" (a cost paid back)
//   any other type (subscription_change, …) has no direction and never matches.
//
// The `unreconciled` signal: one per import and day, naming how many lines it covers. An import
// event still unmatched more than the window after its date is *expected to have a match* only
// when an integration is expected to report the same money, that is when the owner has an
// integration I (see `expectedReporter` below) with
//   - I.provider <> manual_import and I.status = 'active',
//   - I.business_id = the line's business,
//   - the line's date within I's coverage: from the day I was connected (created_at, UTC) to
//     the day of its last delivery or sync (last_sync_at, UTC; never synced = covers nothing),
//   - I reports that currency and direction of money: it has delivered at least one actual,
//     confirmed event in the line's currency and direction (an integration has no currency of
//     its own: platforms report each event's currency; an ad platform never reports money in).
// Lines of one import (payload.batch_id) and one date that are expected and unmatched raise
// ONE signal, external_id `unreconciled:<import id>:<date>` (so a repeat is deduplicated by the
// signal path), with the number of lines in its message and ref, and their total when they
// share one currency. Lines no integration is expected to report raise nothing. Lines already
// named by a signal of the previous per-line scheme (`unreconciled:<event id>`) are not counted
// again.
//
// Bounded work. A run walks the owner's backlog in two phases, each in batches of one short
// transaction (PGlite has one connection: requests run between batches):
//   1. match: RECONCILIATION_BATCH_LINES unreconciled lines at a time, in line order;
//   2. signal: the (import, date) groups of due lines of RECONCILIATION_BATCH_DAYS dates at a time,
//      group counted by SQL, never loaded line by line.
// Every batch locks the owner's manual_import integration(s) (the lock the ingest path takes
// for that integration, so two runs — or a run and an import — never interleave within a batch)
// and saves where the walk stands (the cursor) in the first one's config.reconciliation, in the
// same transaction as its writes. A run stops starting batches after its time budget; the next
// run continues from the cursor, so nothing is redone or signalled twice. A finished walk
// records completed_at; the next run starts a new walk (late events can still match older
// lines), owners whose walk is oldest first.
import { z } from "zod";
import { addDays, todayUtc } from "../../lib/days";
import { moneyDirectionSql } from "../../lib/money-direction";
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { ingestSignalsInTx } from "../ingest/ingest-signals";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { lockOwnerIntegrations } from "../sources/integration-store";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";
import {
  assignMatches,
  candidateEventSql,
  candidateOrderSql,
  lineKeySql,
  lineOrderSql,
  lineRowSelectSql,
  notClaimedSql,
  RECONCILIATION_WINDOW_DAYS,
  handEntrySql,
  sameScopeSql,
  type TMatchPair,
} from "./matching-rule";

export const UNRECONCILED_PREFIX = "unreconciled:";
/** Import lines matched per transaction. */
export const RECONCILIATION_BATCH_LINES = 500;
/** Dates whose (import, date) groups are signalled per transaction. */
export const RECONCILIATION_BATCH_DAYS = 25;
/** A run starts no batch after this long; the next run continues where it stopped. */
export const RECONCILIATION_BUDGET_MS = 60_000;

export type TReconcileOptions = {
  now?: Date;
  ownerId?: string;
  /** The run's time budget (default RECONCILIATION_BUDGET_MS). */
  budgetMs?: number;
  /** At most this many batches (tests: a budget that does not depend on the machine's speed). */
  budgetBatches?: number;
  batchLines?: number;
  batchDays?: number;
};
export type TReconcileResult = {
  /** Import lines matched (reconciled). */
  matched: number;
  /** `unreconciled` signals raised: one per import and date. */
  signaled: number;
  /** Import lines those signals name. */
  unreconciled: number;
  /** False when the time budget stopped the run before every owner's walk finished. */
  complete: boolean;
};

/** The last line a match batch did, in line order (row: payload.row; absent in cursors saved before it was part of the order). */
const ZLineKey = z.object({ on: z.string(), created: z.string(), row: z.number().optional(), id: z.string() });
type TLineKey = z.infer<typeof ZLineKey>;

/** Where the walk of one owner's backlog stands (integrations.config.reconciliation). */
const ZCursor = z.discriminatedUnion("phase", [
  z.object({ phase: z.literal("match"), after: ZLineKey.nullable() }),
  z.object({ phase: z.literal("signal"), after: z.string().nullable() }),
  z.object({ phase: z.literal("done"), completed_at: z.string() }),
]);
type TCursor = z.infer<typeof ZCursor>;

type TBatchResult = { matched: number; signaled: number; unreconciled: number; done: boolean };

/** Where an event's money goes: 'out', 'in' or NULL (never matches). */
const moneyDirection = (alias: string) => Prisma.raw(moneyDirectionSql(alias));

/** The import events the reconciliation looks at: unreconciled lines of these manual_import integrations. */
const openLines = (alias: string, ownerId: string, integrationIds: string[]) => Prisma.sql`
      ${Prisma.raw(alias)}.owner_id = ${ownerId}::uuid
  AND ${Prisma.raw(alias)}.integration_id = ANY(${integrationIds}::uuid[])
  AND ${Prisma.raw(alias)}.source_type = 'IMPORT' AND ${Prisma.raw(alias)}.state = 'actual'
  AND ${Prisma.raw(alias)}.status = 'confirmed' AND ${Prisma.raw(alias)}.reconciled = false
  AND COALESCE(${Prisma.raw(alias)}.payload->>'reconcile', 'true') <> 'false'`;

/** Lets the server answer what waits between two batches (PGlite runs on this thread). */
const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/**
 * Reconciles every owner (or one), batch by batch, until each owner's walk is finished or the
 * time budget is spent. Safe to run twice at once, and to stop at any point.
 */
export async function reconcileImports(db: TDbOrTx, options: TReconcileOptions = {}): Promise<TReconcileResult> {
  const now = options.now ?? new Date();
  const ownerId = options.ownerId ?? null;
  const deadline = Date.now() + (options.budgetMs ?? RECONCILIATION_BUDGET_MS);
  const sizes = {
    lines: options.batchLines ?? RECONCILIATION_BATCH_LINES,
    days: options.batchDays ?? RECONCILIATION_BATCH_DAYS,
  };
  // Owners with lines to look at; a walk in progress first, then the longest finished.
  const owners = await db.$queryRaw<Array<{ owner_id: string }>>`
    SELECT i.owner_id::text AS owner_id
      FROM integrations i
     WHERE i.provider = ${MANUAL_IMPORT_PROVIDER}
       AND (${ownerId}::uuid IS NULL OR i.owner_id = ${ownerId}::uuid)
       AND EXISTS (SELECT 1 FROM financial_events fe
                    WHERE fe.integration_id = i.id AND fe.source_type = 'IMPORT' AND fe.state = 'actual'
                      AND fe.status = 'confirmed' AND fe.reconciled = false)
     GROUP BY i.owner_id
     ORDER BY min(i.config->'reconciliation'->>'completed_at') NULLS FIRST, i.owner_id`;
  const total: TReconcileResult = { matched: 0, signaled: 0, unreconciled: 0, complete: true };
  if (owners.length === 0) return total;
  await analyzeWithoutAutovacuum(db);
  let batches = 0;
  for (const { owner_id } of owners) {
    let started = false;
    for (;;) {
      if (Date.now() >= deadline || batches++ >= (options.budgetBatches ?? Infinity)) return { ...total, complete: false };
      const batch = await inTransaction(db, (tx) => reconcileBatchInTx(tx, owner_id, now, sizes, started));
      started = true;
      total.matched += batch.matched;
      total.signaled += batch.signaled;
      total.unreconciled += batch.unreconciled;
      if (batch.done) break;
      await yieldToRequests();
    }
  }
  return total;
}

/**
 * The batches' plans rely on statistics (an ordered index walk, not a sort of the rest of the
 * backlog at every batch; an index probe, not a scan of the table for a rare integration).
 * PGlite has no autovacuum and never gathers them, so each run does, with a small sample (3,000
 * rows: enough for row counts and frequent values, and little memory, which PGlite never gives
 * back). Where autovacuum has analyzed the table (PostgreSQL), its statistics are left alone.
 */
async function analyzeWithoutAutovacuum(db: TDbOrTx): Promise<void> {
  const [stats] = await db.$queryRaw<Array<{ auto: boolean }>>`
    SELECT (last_autoanalyze IS NOT NULL OR last_autovacuum IS NOT NULL) AS auto
      FROM pg_stat_user_tables WHERE relname = 'financial_events'`;
  if (stats?.auto) return;
  await inTransaction(db, async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL default_statistics_target = 10");
    await tx.$executeRawUnsafe("ANALYZE financial_events");
  });
}

/**
 * One batch of one owner's walk, under the owner's manual_import row locks: reads the cursor,
 * does one batch of its phase, saves the cursor. `continuing`: this run already did a batch of
 * this owner (a finished walk then ends the owner's turn instead of starting a new one).
 */
async function reconcileBatchInTx(
  tx: TTx,
  ownerId: string,
  now: Date,
  sizes: { lines: number; days: number },
  continuing: boolean,
): Promise<TBatchResult> {
  // The same row locks as the ingest path takes for these integrations.
  const imports = await lockOwnerIntegrations(tx, ownerId, { provider: MANUAL_IMPORT_PROVIDER });
  if (imports.length === 0) return { matched: 0, signaled: 0, unreconciled: 0, done: true };
  const stateId = imports[0]!.id;
  const integrationIds = imports.map((i) => i.id);
  const [row] = await tx.$queryRaw<Array<{ cursor: unknown }>>`
    SELECT config->'reconciliation' AS cursor FROM integrations WHERE id = ${stateId}::uuid`;
  // No cursor, or one this version cannot read: a new walk (redoing a walk is harmless).
  const saved = ZCursor.safeParse(row?.cursor);
  let cursor: TCursor = saved.success ? saved.data : { phase: "done", completed_at: "" };
  if (cursor.phase === "done") {
    // Another run finished this walk while this one waited for the lock.
    if (continuing) return { matched: 0, signaled: 0, unreconciled: 0, done: true };
    cursor = { phase: "match", after: null };
  }

  let result: TBatchResult;
  let next: TCursor;
  if (cursor.phase === "match") {
    const step = await matchBatch(tx, ownerId, integrationIds, now, cursor.after, sizes.lines);
    next = step.after ? { phase: "match", after: step.after } : { phase: "signal", after: null };
    result = { matched: step.matched, signaled: 0, unreconciled: 0, done: false };
  } else {
    const step = await signalBatch(tx, ownerId, integrationIds, now, cursor.after, sizes.days);
    next = step.after ? { phase: "signal", after: step.after } : { phase: "done", completed_at: now.toISOString() };
    result = { matched: 0, signaled: step.signaled, unreconciled: step.unreconciled, done: next.phase === "done" };
  }
  await tx.$executeRaw`
    UPDATE integrations
       SET config = jsonb_set(COALESCE(config, '{}'::jsonb), '{reconciliation}', ${JSON.stringify(next)}::jsonb)
     WHERE id = ${stateId}::uuid`;
  return result;
}

/** Matches the next `limit` open lines after `after`; answers the last one's key (null: none left). */
async function matchBatch(
  tx: TTx,
  ownerId: string,
  integrationIds: string[],
  now: Date,
  after: TLineKey | null,
  limit: number,
): Promise<{ matched: number; after: TLineKey | null }> {
  const lines = await tx.$queryRaw<Array<{ id: string; day: string; created: Date; row: string }>>`
    SELECT imp.id::text AS id, imp.occurred_on::text AS day, imp.created_at AS created, ${lineRowSelectSql("imp")} AS row
      FROM financial_events imp
     WHERE ${openLines("imp", ownerId, integrationIds)}
       -- The first condition alone bounds the index scan; the second is the exact keyset.
       AND imp.occurred_on >= COALESCE(${after?.on ?? null}::date, '-infinity'::date)
       AND (${after === null} OR ${lineKeySql("imp")}
                                > (${after?.on ?? null}::date, ${after?.created ?? null}::timestamptz,
                                   ${after?.row ?? -1}::numeric, ${after?.id ?? null}::uuid))
     ORDER BY ${lineOrderSql("imp")}
     LIMIT ${limit}`;
  if (lines.length === 0) return { matched: 0, after: null };
  const last = lines[lines.length - 1]!;
  const key: TLineKey = { on: last.day, created: last.created.toISOString(), row: Number(last.row), id: last.id };
  const ids = lines.map((l) => l.id);
  const from = addDays(lines[0]!.day, -RECONCILIATION_WINDOW_DAYS);
  const to = addDays(last.day, RECONCILIATION_WINDOW_DAYS);

  // 1. Candidate pairs in the rule's order: lines in line order, then each line's candidates in
  //    candidate order (matching-rule.ts). A line at position p of the batch needs at most
  //    p + 1 candidates (the p lines before it take one each), so `limit` per line gives the
  //    same assignment as all of them.
  const candidates = await tx.$queryRaw<TMatchPair[]>`
    WITH imp AS MATERIALIZED (
       -- This batch's lines (still open: another run may have matched some meanwhile).
       SELECT imp.id, imp.occurred_on, imp.created_at, imp.payload, abs(imp.amount_minor) AS amount, imp.currency,
              imp.business_id, imp.personal, (${moneyDirection("imp")}) AS dir
         FROM financial_events imp
        WHERE imp.id = ANY(${ids}::uuid[]) AND ${openLines("imp", ownerId, integrationIds)}
     ), ev AS MATERIALIZED (
       -- Every candidate event that is near enough to one of them.
       SELECT ev.id, ev.occurred_on, ev.created_at, abs(ev.amount_minor) AS amount, ev.currency,
              ${handEntrySql("ev")} AS hand, ev.business_id, ev.personal, (${moneyDirection("ev")}) AS dir
         FROM financial_events ev
        WHERE ${candidateEventSql("ev", ownerId)}
          AND ev.occurred_on BETWEEN ${from}::date AND ${to}::date
     ), pairs AS (
       SELECT imp.id AS line_id, ev.id AS event_id,
              row_number() OVER (PARTITION BY imp.id ORDER BY ${candidateOrderSql("imp", "ev")}) AS rank,
              row_number() OVER (ORDER BY ${lineOrderSql("imp")}, ${candidateOrderSql("imp", "ev")}) AS position
         FROM imp
         JOIN ev
           ON ev.amount = imp.amount
          AND ev.currency = imp.currency
          AND ev.dir = imp.dir
          AND ev.occurred_on BETWEEN imp.occurred_on - ${RECONCILIATION_WINDOW_DAYS}::int
                                 AND imp.occurred_on + ${RECONCILIATION_WINDOW_DAYS}::int
          AND ${sameScopeSql(
            { hand: Prisma.sql`ev.hand`, businessId: Prisma.sql`ev.business_id`, personal: Prisma.sql`ev.personal` },
            { businessId: Prisma.sql`imp.business_id`, personal: Prisma.sql`imp.personal` },
          )}
        -- Only evaluated (one scan of the owner's events) when the batch has candidates.
        WHERE ${notClaimedSql("ev", ownerId)}
     )
     SELECT line_id::text AS line_id, event_id::text AS event_id
       FROM pairs
      WHERE rank <= ${limit}
      ORDER BY position`;
  const matches = [...assignMatches(candidates)].map(([import_id, event_id]) => ({ import_id, event_id }));
  // A short batch was the last one.
  const next = lines.length < limit ? null : key;
  if (matches.length === 0) return { matched: 0, after: next };

  // 2. Mark the matched import events (guarded: only those still unreconciled).
  type TMatched = { id: string; event_id: string; amount_minor: string; currency: string };
  const assignments = JSON.stringify(matches);
  const matched = await tx.$queryRaw<TMatched[]>`
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
  return { matched: matched.length, after: next };
}

/**
 * Whether an integration is expected to report the money of line `l` (columns business_id,
 * currency, dir, day): the rule in the header comment.
 */
const expectedReporter = (ownerId: string) => Prisma.sql`
  EXISTS (
    SELECT 1 FROM integrations i
     WHERE i.owner_id = ${ownerId}::uuid
       AND i.provider <> ${MANUAL_IMPORT_PROVIDER}
       AND i.status = 'active'
       AND i.business_id = l.business_id
       AND (i.created_at AT TIME ZONE 'UTC')::date <= l.day
       AND (i.last_sync_at AT TIME ZONE 'UTC')::date >= l.day
       -- Ordered like the (integration_id, external_id) index, so that this walks the
       -- integration's own events rather than scanning the table for a rare integration.
       AND (SELECT 1 FROM financial_events e
             WHERE e.integration_id = i.id AND e.currency = l.currency
               AND e.state = 'actual' AND e.status = 'confirmed'
               AND (${moneyDirection("e")}) = l.dir
             ORDER BY e.integration_id, e.external_id
             LIMIT 1) IS NOT NULL)`;

/**
 * Signals the (import, date) groups of due lines on the next `limit` dates after `after`: one
 * signal per group with expected lines. Answers the last date (null: none left).
 */
async function signalBatch(
  tx: TTx,
  ownerId: string,
  integrationIds: string[],
  now: Date,
  after: string | null,
  limit: number,
): Promise<{ signaled: number; unreconciled: number; after: string | null }> {
  const cutoff = addDays(todayUtc(now), -RECONCILIATION_WINDOW_DAYS);
  // The next dates with open due lines: one index probe per date (a skip scan), however many
  // lines each date has.
  const found = await tx.$queryRaw<Array<{ day: string }>>`
    WITH RECURSIVE days AS (
      (SELECT fe.occurred_on AS day FROM financial_events fe
        WHERE ${openLines("fe", ownerId, integrationIds)}
          AND fe.occurred_on > COALESCE(${after}::date, '-infinity'::date) AND fe.occurred_on < ${cutoff}::date
        ORDER BY fe.occurred_on LIMIT 1)
      UNION ALL
      SELECT (SELECT fe.occurred_on FROM financial_events fe
               WHERE ${openLines("fe", ownerId, integrationIds)}
                 AND fe.occurred_on > days.day AND fe.occurred_on < ${cutoff}::date
               ORDER BY fe.occurred_on LIMIT 1)
        FROM days WHERE days.day IS NOT NULL
    )
    SELECT day::text AS day FROM days WHERE day IS NOT NULL LIMIT ${limit}`;
  if (found.length === 0) return { signaled: 0, unreconciled: 0, after: null };
  const days = found.map((d) => d.day);

  // Per import, date and kind of money (business, currency, direction): the lines no signal
  // names yet, and whether an integration is expected to report them.
  type TRow = {
    integration_id: string;
    business_id: string | null;
    day: string;
    batch: string;
    currency: string;
    lines: number;
    total: string;
  };
  const rows = await tx.$queryRaw<TRow[]>`
    WITH l AS (
      SELECT fe.integration_id, fe.business_id, fe.occurred_on AS day, COALESCE(fe.payload->>'batch_id', '') AS batch,
             fe.currency, (${moneyDirection("fe")}) AS dir, count(*)::int AS lines, sum(fe.amount_minor) AS total
        FROM financial_events fe
       WHERE ${openLines("fe", ownerId, integrationIds)}
         AND fe.occurred_on = ANY(${days}::date[])
         -- Lines a signal of the previous per-line scheme named (unreconciled:<event id>).
         AND fe.id::text NOT IN (
               SELECT substr(s.external_id, ${UNRECONCILED_PREFIX.length + 1}) FROM integration_signals s
                WHERE s.integration_id = ANY(${integrationIds}::uuid[]) AND s.code = 'unreconciled')
       GROUP BY 1, 2, 3, 4, 5, 6
    )
    SELECT l.integration_id::text AS integration_id, l.business_id::text AS business_id, l.day::text AS day, l.batch,
           l.currency, sum(l.lines)::int AS lines, sum(l.total)::text AS total
      FROM l
     WHERE l.dir IS NOT NULL
       -- The group's signal is not raised yet.
       AND NOT EXISTS (
             SELECT 1 FROM integration_signals s
              WHERE s.integration_id = l.integration_id
                AND s.external_id = ${UNRECONCILED_PREFIX} || CASE l.batch WHEN '' THEN 'none' ELSE l.batch END
                                    || ':' || l.day::text)
       AND ${expectedReporter(ownerId)}
     GROUP BY 1, 2, 3, 4, 5
     ORDER BY 3, 4, 1, 2, 5`;

  // One signal per (integration, import, date); its total only when its lines share a currency.
  const bySignal = new Map<string, TRow[]>();
  for (const r of rows) {
    const key = `${r.integration_id}|${r.batch}|${r.day}`;
    bySignal.set(key, [...(bySignal.get(key) ?? []), r]);
  }
  const signals: TIntegrationSignal[] = [];
  let unreconciled = 0;
  for (const parts of bySignal.values()) {
    const first = parts[0]!;
    const lines = parts.reduce((n, p) => n + p.lines, 0);
    const businesses = new Set(parts.map((p) => p.business_id));
    const total = parts.length === 1 ? Number(first.total) : NaN;
    const batch = first.batch || "none";
    const count = lines === 1 ? "1 bank line" : `${lines} bank lines`;
    signals.push({
      integration_id: first.integration_id,
      external_id: `${UNRECONCILED_PREFIX}${batch}:${first.day}`,
      code: "unreconciled",
      severity: "warning",
      occurred_at: now.toISOString(),
      ...(businesses.size === 1 && first.business_id ? { business_id: first.business_id } : {}),
      ...(Number.isSafeInteger(total) ? { amount_minor: total, currency: first.currency } : {}),
      ref: { type: "import", import_id: batch, occurred_on: first.day, lines: String(lines) },
      message:
        `${count} of ${first.day} (import ${batch}) ${lines === 1 ? "has" : "have"} no matching event after ` +
        `${RECONCILIATION_WINDOW_DAYS} days, though an integration reports this money.`,
    });
    unreconciled += lines;
  }
  const signaled = signals.length ? (await ingestSignalsInTx(tx, ownerId, signals, { now })).accepted : 0;
  return {
    signaled,
    // Under the owner's lock no other run raises these signals, so each one is new.
    unreconciled,
    after: days.length < limit ? null : days[days.length - 1]!,
  };
}
