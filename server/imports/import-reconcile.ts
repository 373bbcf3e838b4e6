// The preview's reconciliation (contract: Import rules 7, preview row status `reconciled`): the
// statement's new rows are matched with the owner's integration events. Two queries for the
// whole file, whatever its size.
import type { TDbOrTx } from "../db/client";
import { daysBetween } from "../fx/money";
import { addDays, dayDate } from "./import-days";
import type { TParsedRow } from "./parse-statement";

export type TOkRow = Extract<TParsedRow, { external_id: string }>;

/** Reconciliation window (contract Limits: 3 days). */
const RECONCILE_DAYS = 3;

type TDirection = "in" | "out";

const OUT_TYPES = new Set(["expense", "recurring_expense", "ad_spend", "planned_expense"]);

function directionOfEvent(type: string, direction: string | null): TDirection | null {
  if (type === "revenue") return "in";
  if (OUT_TYPES.has(type)) return "out";
  if (type === "refund" && (direction === "in" || direction === "out")) return direction;
  return null;
}

/**
 * Matches rows against actual, confirmed events of the owner's other integrations: same amount
 * (absolute), currency and direction, dated within 3 days. Each event matches one row at most
 * (the closest date wins, then file order); events that an earlier import already reconciles
 * are not matched again. Two queries for the whole file.
 */
export async function reconcileRows(
  db: TDbOrTx,
  ownerId: string,
  manualId: string | undefined,
  rows: TOkRow[],
): Promise<Map<number, string>> {
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
  const from = addDays(min, -RECONCILE_DAYS);
  const to = addDays(max, RECONCILE_DAYS);
  const [candidates, claimedRows] = await Promise.all([
    db.financialEvent.findMany({
      where: {
        ownerId,
        state: "actual",
        status: "confirmed",
        reconciled: false,
        sourceType: { not: "MANUAL" },
        AND: [{ integrationId: { not: null } }, ...(manualId ? [{ integrationId: { not: manualId } }] : [])],
        currency: { in: [...currencies] },
        occurredOn: { gte: dayDate(from), lte: dayDate(to) },
      },
      select: { id: true, type: true, direction: true, amountMinor: true, currency: true, occurredOn: true },
      orderBy: [{ occurredOn: "asc" }, { id: "asc" }],
    }),
    manualId
      ? db.financialEvent.findMany({
          where: {
            integrationId: manualId,
            reconciled: true,
            status: "confirmed",
            occurredOn: { gte: dayDate(addDays(from, -RECONCILE_DAYS)), lte: dayDate(addDays(to, RECONCILE_DAYS)) },
          },
          select: { payload: true },
        })
      : Promise.resolve([]),
  ]);
  const used = new Set<string>();
  for (const { payload } of claimedRows) {
    const named = (payload as { reconciles_event_id?: string | string[] } | null)?.reconciles_event_id;
    for (const id of Array.isArray(named) ? named : named ? [named] : []) used.add(id);
  }
  const byKey = new Map<string, Array<{ id: string; day: string }>>();
  for (const event of candidates) {
    const direction = directionOfEvent(event.type, event.direction);
    if (!direction || used.has(event.id)) continue;
    const amount = event.amountMinor < 0n ? -event.amountMinor : event.amountMinor;
    const key = `${event.currency}|${amount}|${direction}`;
    const list = byKey.get(key) ?? [];
    list.push({ id: event.id, day: event.occurredOn.toISOString().slice(0, 10) });
    byKey.set(key, list);
  }
  if (byKey.size === 0) return matches;
  // Every (row, event) pair inside the window, closest first (then file order, then the
  // event's date and id): each event goes to its closest row, each row to its closest event.
  const pairs: Array<{ row: number; id: string; distance: number; rank: number }> = [];
  for (const row of rows) {
    const list = byKey.get(`${row.currency}|${Math.abs(row.amount_minor)}|${row.amount_minor < 0 ? "out" : "in"}`);
    if (!list) continue;
    list.forEach((candidate, rank) => {
      const distance = Math.abs(daysBetween(row.occurred_on, candidate.day));
      if (distance <= RECONCILE_DAYS) pairs.push({ row: row.row, id: candidate.id, distance, rank });
    });
  }
  pairs.sort((a, b) => a.distance - b.distance || a.row - b.row || a.rank - b.rank);
  for (const pair of pairs) {
    if (used.has(pair.id) || matches.has(pair.row)) continue;
    used.add(pair.id);
    matches.set(pair.row, pair.id);
  }
  return matches;
}
