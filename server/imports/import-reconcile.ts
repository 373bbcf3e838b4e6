// The preview's reconciliation (contract: Import rules 7, preview row status `reconciled`): the
// statement's new rows are paired with the owner's integration events by the matching rule
// the daily job applies (server/reconciliation/matching-rule.ts), so a row shown reconciled
// is the pair the job would make. The lines are the file's new rows only: lines of earlier
// imports still unreconciled are the job's. One query for the whole file, whatever its size.
import { addDays } from "../../lib/days";
import { moneyDirection } from "../../lib/money-direction";
import type { TDbOrTx } from "../db/client";
import {
  candidateEventSql,
  matchKey,
  notClaimedSql,
  pairLines,
  RECONCILIATION_WINDOW_DAYS,
  type TMatchEvent,
  type TMatchLine,
} from "../reconciliation/matching-rule";
import type { TParsedRow } from "./parse-statement";

export type TOkRow = Extract<TParsedRow, { external_id: string }>;

/** A statement row's key: negative amounts are money out. */
const rowKey = (row: TOkRow) => matchKey(row.currency, row.amount_minor, row.amount_minor < 0 ? "out" : "in");

/** Row number → the event it reconciles, for the rows that pair. */
export async function reconcileRows(db: TDbOrTx, ownerId: string, rows: TOkRow[]): Promise<Map<number, string>> {
  const matches = new Map<number, string>();
  if (rows.length === 0) return matches;
  let min = rows[0]!.occurred_on;
  let max = min;
  const currencies = new Set<string>();
  for (const row of rows) {
    if (row.occurred_on < min) min = row.occurred_on;
    if (row.occurred_on > max) max = row.occurred_on;
    currencies.add(row.currency);
  }
  const candidates = await db.$queryRaw<
    Array<{
      id: string;
      type: string;
      direction: string | null;
      amount_minor: bigint;
      currency: string;
      day: string;
      created_at: Date;
    }>
  >`
    SELECT ev.id::text AS id, ev.type, ev.direction, ev.amount_minor, ev.currency, ev.occurred_on::text AS day, ev.created_at
      FROM financial_events ev
     WHERE ${candidateEventSql("ev", ownerId)}
       AND ev.currency = ANY(${[...currencies]}::text[])
       AND ev.occurred_on BETWEEN ${addDays(min, -RECONCILIATION_WINDOW_DAYS)}::date
                              AND ${addDays(max, RECONCILIATION_WINDOW_DAYS)}::date
       AND ${notClaimedSql("ev", ownerId)}`;
  const events: TMatchEvent[] = [];
  for (const event of candidates) {
    const direction = moneyDirection(event.type, event.direction);
    if (!direction) continue;
    events.push({
      id: event.id,
      day: event.day,
      createdAt: event.created_at.getTime(),
      key: matchKey(event.currency, event.amount_minor, direction),
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
  for (const [line, event] of pairLines(lines, events)) matches.set(Number(line), event);
  return matches;
}
