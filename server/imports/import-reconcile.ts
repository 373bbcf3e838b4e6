// The preview's reconciliation (contract: Import rules 7, preview row status `reconciled`;
// pinned-wave3 §1.2): the statement's new rows are paired with the owner's integration events
// and hand entries of the import's business by the matching rule the daily job applies
// (server/reconciliation/matching-rule.ts), so a row shown reconciled is the pair the job would
// make. The lines are the file's new rows only: lines of earlier imports still unreconciled are
// the job's. One query for the whole file, whatever its size. The confirm asks again, under the
// import lock, for rows whose event was taken or changed meanwhile (import-confirm.ts).
import { addDays } from "../../lib/days";
import { moneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import {
  candidateEventSql,
  eventScope,
  matchKey,
  notClaimedSql,
  pairLines,
  RECONCILIATION_WINDOW_DAYS,
  sameScopeSql,
  type TMatchEvent,
  type TMatchLine,
} from "../reconciliation/matching-rule";
import type { TMatchedEntry } from "./import-rows";
import type { TParsedRow } from "./parse-statement";

export type TOkRow = Extract<TParsedRow, { external_id: string }>;

/** What a row needs to be matched: its number, date, signed amount and currency. */
export type TMatchableRow = Pick<TOkRow, "row" | "occurred_on" | "amount_minor" | "currency">;

/** A statement row's key: negative amounts are money out. */
const rowKey = (row: TMatchableRow) => matchKey(row.currency, row.amount_minor, row.amount_minor < 0 ? "out" : "in");

export type TReconcileScope = {
  ownerId: string;
  /** The import's business: a hand entry matches only rows of its own business. */
  businessId: string;
  /** Events the caller has already given to other rows (the confirm's kept matches). */
  taken?: ReadonlySet<string>;
};

/** Row number → the event it reconciles, for the rows that pair. */
export async function reconcileRows(
  db: TDbOrTx,
  scope: TReconcileScope,
  rows: readonly TMatchableRow[],
): Promise<Map<number, TMatchedEntry>> {
  const matches = new Map<number, TMatchedEntry>();
  if (rows.length === 0) return matches;
  let min = rows[0]!.occurred_on;
  let max = min;
  const currencies = new Set<string>();
  for (const row of rows) {
    if (row.occurred_on < min) min = row.occurred_on;
    if (row.occurred_on > max) max = row.occurred_on;
    currencies.add(row.currency);
  }
  const { ownerId, businessId } = scope;
  const candidates = await db.$queryRaw<
    Array<{
      id: string;
      type: string;
      direction: string | null;
      source_type: string;
      amount_minor: bigint;
      currency: string;
      day: string;
      description: string | null;
      created_at: Date;
    }>
  >`
    SELECT ev.id::text AS id, ev.type, ev.direction, ev.source_type, ev.amount_minor, ev.currency,
           ev.occurred_on::text AS day, ev.description, ev.created_at
      FROM financial_events ev
     WHERE ${candidateEventSql("ev", ownerId)}
       AND ${sameScopeSql(eventScope("ev"), { businessId: Prisma.sql`${businessId}::uuid`, personal: Prisma.sql`false` })}
       AND ev.currency = ANY(${[...currencies]}::text[])
       AND ev.occurred_on BETWEEN ${addDays(min, -RECONCILIATION_WINDOW_DAYS)}::date
                              AND ${addDays(max, RECONCILIATION_WINDOW_DAYS)}::date
       AND ${notClaimedSql("ev", ownerId)}`;
  const events: TMatchEvent[] = [];
  const entries = new Map<string, TMatchedEntry>();
  for (const event of candidates) {
    const direction = moneyDirection(event.type, event.direction);
    if (!direction || scope.taken?.has(event.id)) continue;
    events.push({
      id: event.id,
      day: event.day,
      createdAt: event.created_at.getTime(),
      key: matchKey(event.currency, event.amount_minor, direction),
    });
    entries.set(event.id, {
      id: event.id,
      type: event.type,
      source_type: event.source_type,
      occurred_on: event.day,
      // The row's own amount (the key matched it), so within the exact range.
      amount_minor: Number(event.amount_minor),
      currency: event.currency,
      description: event.description,
    });
  }
  if (events.length === 0) return matches;
  // The rows are not stored yet: one created_at for all, so date and file order decide.
  const lines: TMatchLine[] = rows.map((row) => ({
    id: String(row.row),
    day: row.occurred_on,
    createdAt: 0,
    row: row.row,
    key: rowKey(row),
  }));
  for (const [line, event] of pairLines(lines, events)) matches.set(Number(line), entries.get(event)!);
  return matches;
}

/**
 * The matches the confirm writes, asked again under the lock every writer of bank lines takes
 * (the owner's manual_import integration: confirms, the daily job, the ledger's fixes): the
 * preview's match of each reconciled row (minus the rows the owner keeps separate) if its event
 * is still a free candidate; else the row is paired again among the free candidates (the event
 * was corrected, voided, or taken by another import meanwhile), or written as new. So one event
 * is reconciled by one line at most, across the file and across imports, whatever the order of
 * two confirms. Set-based: one read of the stored rows, one check, one pairing for the rest.
 */
export async function confirmMatches(
  tx: TDbOrTx,
  scope: {
    ownerId: string;
    businessId: string;
    importId: string;
    /** The preview's summary.would_reconcile (undefined: stored before it was kept). */
    wouldReconcile: number | undefined;
    skip: (row: number, externalId: string) => boolean;
  },
): Promise<Map<number, string>> {
  // A preview that matched nothing (the count is kept since issue 32) has nothing to ask again.
  if (scope.wouldReconcile === 0) return new Map();
  const previewed = await tx.$queryRaw<
    Array<{ row: number; event_id: string; external_id: string; day: string; amount: string; currency: string }>
  >`
    SELECT (r->>'n')::int AS row, r->>'m' AS event_id, r->>'x' AS external_id, r->>'d' AS day, r->>'a' AS amount,
           r->>'c' AS currency
      FROM import_row_pages p CROSS JOIN LATERAL jsonb_array_elements(p.rows) AS r
     WHERE p.import_id = ${scope.importId}::uuid AND r->>'s' = 'r'
     ORDER BY p.page_no`;
  const wanted = previewed.filter((r) => !scope.skip(r.row, r.external_id));
  const final = new Map<number, string>();
  if (wanted.length === 0) return final;
  const ids = [...new Set(wanted.map((r) => r.event_id))];
  const free = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT ev.id::text AS id
      FROM financial_events ev
     WHERE ev.id = ANY(${ids}::uuid[])
       AND ${candidateEventSql("ev", scope.ownerId)}
       AND ${sameScopeSql(eventScope("ev"), { businessId: Prisma.sql`${scope.businessId}::uuid`, personal: Prisma.sql`false` })}
       AND ${notClaimedSql("ev", scope.ownerId)}`;
  const stillFree = new Set(free.map((f) => f.id));
  const again: TMatchableRow[] = [];
  for (const r of wanted) {
    if (stillFree.has(r.event_id)) final.set(r.row, r.event_id);
    else again.push({ row: r.row, occurred_on: r.day, amount_minor: Number(r.amount), currency: r.currency });
  }
  if (again.length === 0) return final;
  const taken = new Set(final.values());
  for (const [row, entry] of await reconcileRows(tx, { ownerId: scope.ownerId, businessId: scope.businessId, taken }, again))
    final.set(row, entry.id);
  return final;
}
