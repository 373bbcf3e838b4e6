// The one rule that pairs bank lines with ledger events (contract: Import rules 7, the "import
// event" transitions, Limits "Reconciliation window"). Two places apply it and must agree:
//   - the import preview, in JS, on the rows of an uploaded statement
//     (server/imports/import-reconcile.ts);
//   - the daily job, in SQL, on the import events still unreconciled (reconciliation-service.ts).
// matching-rule.int.test.ts feeds the same lines and events to both and expects the same pairs.
//
// A line and an event pair only when
//   - the event is a candidate (candidateEventSql): an actual, confirmed, not reconciled event of
//     the same owner, either from any integration other than manual_import (the bank lines' own)
//     or entered by hand (source MANUAL: POST /v1/expenses, /v1/revenues, the panel; pinned-wave3
//     §1.2) — a hand entry only for lines of its own scope (same business, or personal: sameScopeSql),
//     and never the correction of an imported line (still a bank line, not a hand entry:
//     CORRECTED_IMPORT_LINE) — that no confirmed event names in payload.reconciles_event_id yet
//     (notClaimedSql);
//   - they have the same currency, the same absolute amount_minor and the same direction of
//     money (the key, matchKey);
//   - their dates are at most RECONCILIATION_WINDOW_DAYS days apart.
// Each line takes one event at most and each event goes to one line at most, greedily:
//   1. lines in line order: the oldest date first, then the earliest stored (created_at), then
//      file order (payload.row), then id. The preview's rows are not stored yet: they all
//      share one created_at, so date then file order decide;
//   2. each line takes its first free candidate in candidate order: the closest date, then the
//      oldest created event (the first reported), then id.
// Lines first, not the closest pair overall: the job walks the lines in this order in bounded
// batches, and a batch's pairs must not depend on lines a later batch holds. The preview takes
// the same order so that a row it shows reconciled is the pair the job would make.
import { daysBetween } from "../../lib/days";
import { Prisma } from "../db/generated/client";
import { CORRECTED_IMPORT_LINE, RECONCILIATION_WINDOW_DAYS } from "../ledger/imported-lines";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";

export { RECONCILIATION_WINDOW_DAYS };

/** A bank line waiting for its event: a statement row at preview, an import event in the job. */
export type TMatchLine = {
  id: string;
  /** occurred_on, YYYY-MM-DD. */
  day: string;
  /** When it was stored (ms since the epoch); one value for all the rows of a preview. */
  createdAt: number;
  /** Its row in the statement (payload.row; 0 when it has none). */
  row: number;
  /** matchKey: only a line and an event of the same key can pair. */
  key: string;
};

/** A candidate event (see the header for which events are). */
export type TMatchEvent = { id: string; day: string; createdAt: number; key: string };

/** A line and a candidate event of it. */
export type TMatchPair = { line_id: string; event_id: string };

/** Currency, absolute amount and direction of money: what a line and its event share. */
export function matchKey(currency: string, amountMinor: bigint | number, direction: "in" | "out"): string {
  const absolute = amountMinor < 0 ? -amountMinor : amountMinor;
  return `${currency}|${absolute}|${direction}`;
}

/** A day as a number of days since 1970-01-01, for the window's binary search (pairLines). */
const dayNumber = (day: string) => daysBetween("1970-01-01", day);
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whole days between two dates, either way. */
export function daysApart(a: string, b: string): number {
  return Math.abs(daysBetween(a, b));
}

/** Line order, in JS: oldest date, earliest stored, file order, id. */
export function compareLines(a: TMatchLine, b: TMatchLine): number {
  return order(a.day, b.day) || a.createdAt - b.createdAt || a.row - b.row || order(a.id, b.id);
}

/** Candidate order for one line, in JS: closest date, oldest created, id (uuid text sorts as uuid). */
export function compareCandidates(line: { day: string }, a: TMatchEvent, b: TMatchEvent): number {
  return daysApart(line.day, a.day) - daysApart(line.day, b.day) || a.createdAt - b.createdAt || order(a.id, b.id);
}

/** payload.row of an import event as a number, 0 when it has none. */
const lineRowSql = (alias: string) =>
  `COALESCE(CASE WHEN jsonb_typeof(${alias}.payload->'row') = 'number' THEN (${alias}.payload->>'row')::numeric END, 0)`;

const lineOrder = (alias: string) => `${alias}.occurred_on, ${alias}.created_at, ${lineRowSql(alias)}, ${alias}.id`;

/** Line order, in SQL, over import events (alias: a financial_events row, or a CTE with its payload). */
export const lineOrderSql = (alias: string) => Prisma.raw(lineOrder(alias));

/** The line order's key as a row value (keyset paging: `lineKeySql(a) > (on, created, row, id)`). */
export const lineKeySql = (alias: string) => Prisma.raw(`(${lineOrder(alias)})`);

/** The line's row number as the line order reads it (for the cursor of a walk). */
export const lineRowSelectSql = (alias: string) => Prisma.raw(`(${lineRowSql(alias)})::text`);

/** Candidate order for one line, in SQL. */
export const candidateOrderSql = (line: string, event: string) =>
  Prisma.raw(`abs(${event}.occurred_on - ${line}.occurred_on), ${event}.created_at, ${event}.id`);

/**
 * Whether financial_events row `alias` is a candidate of the owner's lines: an integration's
 * event, or a hand entry (claims aside: notClaimedSql; a hand entry's scope: sameScopeSql).
 */
export const candidateEventSql = (alias: string, ownerId: string) => {
  const ev = Prisma.raw(alias);
  return Prisma.sql`${ev}.owner_id = ${ownerId}::uuid
    AND ${ev}.state = 'actual' AND ${ev}.status = 'confirmed' AND ${ev}.reconciled = false
    AND (${handEntrySql(alias)}
         OR EXISTS (SELECT 1 FROM integrations ei
                     WHERE ei.id = ${ev}.integration_id AND ei.owner_id = ${ev}.owner_id
                       AND ei.provider <> ${MANUAL_IMPORT_PROVIDER}))`;
};

/** Whether row `alias` is an entry made by hand (not a corrected bank line): one scope's candidate only. */
export const handEntrySql = (alias: string) =>
  Prisma.raw(`(${alias}.source_type = 'MANUAL' AND ${alias}.integration_id IS NULL
    AND NOT COALESCE(${alias}.payload ? '${CORRECTED_IMPORT_LINE}', false))`);

/** A side of a pair, for sameScopeSql: its business and personal columns (or values). */
type TScopeSide = { businessId: Prisma.Sql; personal: Prisma.Sql };

/**
 * A candidate event may pair with a line of this scope: an integration's event with a line of
 * any business (the platform's account is the owner's), a hand entry (`event.hand`, handEntrySql)
 * only with a line of its own business, or personal with personal.
 */
export const sameScopeSql = (event: TScopeSide & { hand: Prisma.Sql }, line: TScopeSide) =>
  Prisma.sql`(NOT ${event.hand}
    OR (${event.businessId} IS NOT DISTINCT FROM ${line.businessId} AND ${event.personal} = ${line.personal}))`;

/** sameScopeSql's event side for a financial_events row `alias`. */
export const eventScope = (alias: string) => ({
  hand: handEntrySql(alias),
  businessId: Prisma.raw(`${alias}.business_id`),
  personal: Prisma.raw(`${alias}.personal`),
});

/**
 * Whether no confirmed event of the owner names event `alias` in payload.reconciles_event_id
 * (a string or a list). One scan of the owner's events, so apply it to pairs, not to every
 * candidate: PostgreSQL then evaluates it only when there is a pair.
 */
export const notClaimedSql = (alias: string, ownerId: string) => Prisma.sql`
  ${Prisma.raw(alias)}.id::text NOT IN (
    SELECT claimed.event_id
      FROM financial_events c,
           jsonb_array_elements_text(
             CASE jsonb_typeof(c.payload->'reconciles_event_id')
               WHEN 'array' THEN c.payload->'reconciles_event_id'
               ELSE jsonb_build_array(c.payload->'reconciles_event_id') END) AS claimed(event_id)
     WHERE c.owner_id = ${ownerId}::uuid AND c.status = 'confirmed' AND c.payload ? 'reconciles_event_id'
       AND claimed.event_id IS NOT NULL)`;

/** Greedy one-to-one assignment over pairs already in rule order (line order, then candidate order). */
export function assignMatches(pairs: Iterable<TMatchPair>): Map<string, string> {
  const byLine = new Map<string, string>();
  const taken = new Set<string>();
  for (const pair of pairs) {
    if (byLine.has(pair.line_id) || taken.has(pair.event_id)) continue;
    byLine.set(pair.line_id, pair.event_id);
    taken.add(pair.event_id);
  }
  return byLine;
}

/** The rule in JS: line id → event id for every line that pairs. */
export function pairLines(lines: readonly TMatchLine[], events: readonly TMatchEvent[]): Map<string, string> {
  // Per key, the events by date, so that each line reads only those of its window.
  const byKey = new Map<string, Array<TMatchEvent & { dayNo: number }>>();
  for (const event of events) {
    const list = byKey.get(event.key) ?? [];
    list.push({ ...event, dayNo: dayNumber(event.day) });
    byKey.set(event.key, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.dayNo - b.dayNo);
  const pairs: TMatchPair[] = [];
  for (const line of [...lines].sort(compareLines)) {
    const list = byKey.get(line.key);
    if (!list) continue;
    const from = dayNumber(line.day) - RECONCILIATION_WINDOW_DAYS;
    let first = 0;
    for (let last = list.length; first < last;) {
      const middle = (first + last) >> 1;
      if (list[middle]!.dayNo < from) first = middle + 1;
      else last = middle;
    }
    const candidates: TMatchEvent[] = [];
    for (let i = first; i < list.length && list[i]!.dayNo <= from + 2 * RECONCILIATION_WINDOW_DAYS; i++)
      candidates.push(list[i]!);
    candidates.sort((a, b) => compareCandidates(line, a, b));
    for (const event of candidates) pairs.push({ line_id: line.id, event_id: event.id });
  }
  return assignMatches(pairs);
}
