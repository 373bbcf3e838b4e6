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
