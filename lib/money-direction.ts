// Where an event's money goes, THE rule the import preview (server/imports) and the daily
// reconciliation (server/reconciliation, in SQL) match bank lines by:
//   out: expense, ad_spend, recurring_expense, planned_expense, and a refund of revenue
//        (direction "out");
//   in:  revenue, and a refund of a cost (direction "in");
//   any other type (subscription_change, agent_action) has no direction and never matches.
// Written once as data; `moneyDirection` reads it in TypeScript and `moneyDirectionSql` in
// PostgreSQL, and lib/money-direction.test.ts runs both on every type. Pure, no imports.
import type { TEventType } from "./event-types";

/** A refund's direction (financial_events.direction): in = refund of a cost, out = refund of revenue. */
export const MONEY_DIRECTIONS = ["in", "out"] as const;
export type TMoneyDirection = (typeof MONEY_DIRECTIONS)[number];

/** Types whose money always goes out. */
export const MONEY_OUT_TYPES = [
  "expense",
  "ad_spend",
  "recurring_expense",
  "planned_expense",
] as const satisfies readonly TEventType[];
/** Types whose money always comes in. */
export const MONEY_IN_TYPES = ["revenue"] as const satisfies readonly TEventType[];
/** The one type whose direction is its own `direction` column. */
const REFUND: TEventType = "refund";

const OUT: ReadonlySet<string> = new Set(MONEY_OUT_TYPES);
const IN: ReadonlySet<string> = new Set(MONEY_IN_TYPES);

function isMoneyDirection(value: string | null | undefined): value is TMoneyDirection {
  return value === "in" || value === "out";
}

/** Where an event's money goes: "out", "in", or null (never matches). */
export function moneyDirection(type: string, direction: string | null | undefined): TMoneyDirection | null {
  if (IN.has(type)) return "in";
  if (OUT.has(type)) return "out";
  if (type === REFUND && isMoneyDirection(direction)) return direction;
  return null;
}

const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

/**
 * The same rule as a PostgreSQL expression over the financial_events row `alias` ('out', 'in'
 * or NULL); the caller wraps it raw (Prisma.raw). `alias` must be a plain SQL identifier.
 */
export function moneyDirectionSql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${JSON.stringify(alias)}`);
  return `CASE
    WHEN ${alias}.type IN (${quoted(MONEY_OUT_TYPES)}) THEN 'out'
    WHEN ${alias}.type IN (${quoted(MONEY_IN_TYPES)}) THEN 'in'
    WHEN ${alias}.type = '${REFUND}' AND ${alias}.direction IN (${quoted(MONEY_DIRECTIONS)}) THEN ${alias}.direction
  END`;
}
