// Imported bank lines in the ledger (pinned-wave3 §1.2): the events a statement import wrote
// (source IMPORT, the owner's manual_import integration) can be voided and corrected like hand
// entries. A correction is written as the owner's own entry (source MANUAL) that supersedes the
// line, and carries payload.corrected_import_line (kept by a correction of the correction): it is
// still that bank line, so the reconciliation never takes it for a hand entry of the same money.
import { addDays, utcDayOf } from "../../lib/days";
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma, type FinancialEvent } from "../db/generated/client";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";

/** The payload key of a corrected bank line: `{ import_id, event_id }` of the line it corrects. */
export const CORRECTED_IMPORT_LINE = "corrected_import_line";

type TEventKind = Pick<FinancialEvent, "ownerId" | "sourceType" | "integrationId">;

/** Whether the event is a line a statement import wrote (its integration is the owner's manual_import). */
export async function isImportedLine(db: TDbOrTx, event: TEventKind): Promise<boolean> {
  if (event.sourceType !== "IMPORT" || !event.integrationId) return false;
  const integration = await db.integration.findFirst({
    where: { id: event.integrationId, ownerId: event.ownerId, provider: MANUAL_IMPORT_PROVIDER },
    select: { id: true },
  });
  return integration !== null;
}

/** A hand entry's correction, as the lines that reconciled the old version may follow it. */
export type TReplacement = {
  id: string;
  amountMinor: bigint;
  currency: string;
  occurredOn: string;
  businessId: string | null;
  personal: boolean;
};

/**
 * Contract Limits: "Reconciliation window — 3 days, amount and currency match". Here, below the
 * matching rule (server/reconciliation/matching-rule.ts re-exports it), so the ledger's fixes
 * keep a line's link only within the same window.
 */
export const RECONCILIATION_WINDOW_DAYS = 3;

/**
 * The bank lines that reconcile a hand entry being voided or corrected (pinned-wave3 §1.2): with
 * a correction of the same money (currency, amount, scope, dates still within the window) they
 * follow it (payload.reconciles_event_id names the new version); otherwise they are released —
 * reconciled = false, they count again (the money they stand for is not lost with the entry) and
 * the daily reconciliation may pair them anew. The caller holds the owner's manual_import lock.
 * One statement, over the owner's events near the entry's date (lines are at most 3 days away).
 */
export async function relinkLinesOf(
  tx: TTx,
  entry: Pick<FinancialEvent, "id" | "ownerId" | "occurredOn">,
  replacement: TReplacement | null,
  now: Date,
): Promise<{ followed: number; released: number }> {
  const day = utcDayOf(entry.occurredOn);
  const follows = replacement
    ? Prisma.sql`(fe.currency = ${replacement.currency} AND abs(fe.amount_minor) = ${replacement.amountMinor}
                  AND abs(fe.occurred_on - ${replacement.occurredOn}::date) <= ${RECONCILIATION_WINDOW_DAYS}
                  AND fe.business_id IS NOT DISTINCT FROM ${replacement.businessId}::uuid
                  AND fe.personal = ${replacement.personal})`
    : Prisma.sql`false`;
  const [counts] = await tx.$queryRaw<Array<{ followed: number; released: number }>>`
    WITH lines AS (
      SELECT fe.id, ${follows} AS follows
        FROM financial_events fe
       WHERE fe.owner_id = ${entry.ownerId}::uuid
         AND fe.occurred_on BETWEEN ${addDays(day, -RECONCILIATION_WINDOW_DAYS)}::date AND ${addDays(day, RECONCILIATION_WINDOW_DAYS)}::date
         AND fe.status = 'confirmed' AND fe.reconciled
         AND fe.payload->>'reconciles_event_id' = ${entry.id}
         FOR UPDATE
    ), moved AS (
      UPDATE financial_events fe
         SET reconciled = lines.follows,
             payload = CASE WHEN lines.follows
                            THEN jsonb_set(fe.payload, '{reconciles_event_id}', to_jsonb(${replacement?.id ?? null}::text))
                            ELSE (fe.payload - 'reconciled' - 'reconciles_event_id')
                                 || jsonb_build_object('released_from_event_id', ${entry.id}::text) END,
             updated_at = ${now}
        FROM lines
       WHERE fe.id = lines.id
      RETURNING lines.follows
    )
    SELECT count(*) FILTER (WHERE follows)::int AS followed, count(*) FILTER (WHERE NOT follows)::int AS released FROM moved`;
  return counts ?? { followed: 0, released: 0 };
}
