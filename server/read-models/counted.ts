// K3 and K4 (pinned-wave2 §2.1): which events a read model counts, and where their money goes.
//   Actual:     state = actual, counted (status = confirmed, reconciled = false: countsInTotals).
//   Commitment: state = planned, counted, fulfilled_by_event_id IS NULL.
//   Voided events never count. Direction: lib/money-direction (ONE rule): in = revenue, refund
//   in; out = expense, recurring_expense, ad_spend, planned_expense, refund out; none =
//   subscription_change, agent_action. Amounts sum as stored (credits may be negative);
//   net = in − out.
import { moneyDirectionSql } from "../../lib/money-direction";
import { Prisma } from "../db/generated/client";
import { countsInTotalsSql } from "../ledger/counted-total";

/** financial_events row `alias` is a counted actual. */
export function actualCountedSql(alias: string): Prisma.Sql {
  return Prisma.raw(`${alias}.state = 'actual' AND ${countsInTotalsSql(alias)}`);
}

/** financial_events row `alias` is a counted commitment (planned, not fulfilled). */
export function commitmentCountedSql(alias: string): Prisma.Sql {
  return Prisma.raw(`${alias}.state = 'planned' AND ${countsInTotalsSql(alias)} AND ${alias}.fulfilled_by_event_id IS NULL`);
}

/**
 * financial_events row `alias` moves money (K4: a direction, in or out). The others
 * (subscription_change, agent_action) belong to SaaS metrics and to decisions and economics: no
 * summary sums, counts, lists or weighs them (by_type, events_counted, fx.currencies,
 * estimated_share; pinned-wave3 §1.4).
 */
export function movesMoneySql(alias: string): Prisma.Sql {
  return Prisma.raw(`(${moneyDirectionSql(alias)}) IS NOT NULL`);
}

/** financial_events row `alias` is a counted actual that moves money (K3 and K4): what the money read models read. */
export function actualMoneySql(alias: string): Prisma.Sql {
  return Prisma.sql`${actualCountedSql(alias)} AND ${movesMoneySql(alias)}`;
}

/** 'in', 'out' or NULL: where the money of financial_events row `alias` goes. */
export function directionSql(alias: string): Prisma.Sql {
  return Prisma.raw(`(${moneyDirectionSql(alias)})`);
}

/** Σ base_amount_minor of the rows whose direction is 'in' (0 when none), as a bigint expression. */
export function sumInSql(alias: string): Prisma.Sql {
  return Prisma.raw(`COALESCE(SUM(${alias}.base_amount_minor) FILTER (WHERE (${moneyDirectionSql(alias)}) = 'in'), 0)::bigint`);
}

/** Σ base_amount_minor of the rows whose direction is 'out' (0 when none), as a bigint expression. */
export function sumOutSql(alias: string): Prisma.Sql {
  return Prisma.raw(`COALESCE(SUM(${alias}.base_amount_minor) FILTER (WHERE (${moneyDirectionSql(alias)}) = 'out'), 0)::bigint`);
}

// "As known at" an instant (the daily brief, §2.11: at the end of its date). A row was known
// then when it was created before it, and counted then when it counts now or stopped counting
// at or after it (uncounted_at: the void, reconciliation or fulfilment that took it out, stamped
// by a trigger). So a later void or reconciliation still shows, and a later entry does not.

/** financial_events row `alias` existed at `knownAt` and counted then (K3, either state). */
export function countedThenSql(alias: string, knownAt: Date): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.created_at < ${knownAt} AND (${Prisma.raw(countsInTotalsSql(alias))} OR ${a}.uncounted_at >= ${knownAt})`;
}

/** financial_events row `alias` was a counted commitment at `knownAt` (planned, not fulfilled then). */
export function commitmentCountedThenSql(alias: string, knownAt: Date): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.state = 'planned' AND ${a}.created_at < ${knownAt}
    AND ((${Prisma.raw(countsInTotalsSql(alias))} AND ${a}.fulfilled_by_event_id IS NULL) OR ${a}.uncounted_at >= ${knownAt})`;
}

/**
 * financial_events row `alias` is an actual that stopped counting at or after `knownAt` (but
 * counted then, if created before it): the few rows a read "as known at" adds to those
 * counted now. Served by financial_events_uncounted_idx.
 */
export function actualUncountedSinceSql(alias: string, knownAt: Date): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.uncounted_at >= ${knownAt} AND ${a}.state = 'actual' AND ${a}.created_at < ${knownAt}
    AND NOT ${Prisma.raw(countsInTotalsSql(alias))}`;
}
