// The status-like text columns and the one const array each may hold (issue 33): the zod enums
// read the same arrays, the CHECK constraints `<table>_<column>_check` are generated from this
// table (scripts/state-checks-sql.ts), and state-checks.int.test.ts proves that each constraint in
// the database allows exactly its array. A value added to an array needs a migration re-creating
// its constraint (the test fails until it exists).
import { GOAL_KINDS, GOAL_STATUSES } from "./goals/goal.schema";
import { SCOPES } from "./auth/scopes";
import { IDEMPOTENCY_STATES } from "./rest/idempotency";
import { AGENT_CREATED_VIA, AGENT_STATUSES, GRANT_LEVELS, OVER_LIMIT_ACTIONS } from "./agents/agent.schema";
import { APPROVAL_KINDS, APPROVAL_STATUSES, APPROVAL_TRIGGERS } from "./approvals/approval.schema";
import { AUDIT_ACTOR_TYPES } from "./audit/audit.schema";
import { DATA_CLASSES } from "./cash/cash-snapshot.schema";
import { AD_BUDGET_CHANGE_STATUSES, ADS_PROVIDERS } from "./ad-budget-changes/ad-budget-change.schema";
import { RULE_FIELDS, RULE_OPERATORS } from "./category-rules/categorize";
import { OUTCOME_STATUSES } from "./decisions/decision.schema";
import { IMPORT_STATUSES, SAVED_MAPPING_KINDS } from "./imports/import.schema";
import { INTEGRATION_STATUSES } from "./integrations/integration.schema";
import { EVENT_STATUSES, SOURCE_TYPES } from "./ledger/event.schema";
import { FX_SOURCES } from "./fx/fx.schema";
import { DELIVERY_CHANNELS, SEVERITIES } from "./notifications/notification.schema";
import { PLAN_NAMES, PLAN_STATUSES } from "./plans/plan-limits";
import { RESERVATION_STATUSES } from "./reservations/reservation.schema";
import { SESSION_CHANNELS } from "./sessions/session.schema";
import { PROVIDERS } from "./sources/providers";
import { BILLING_INTERVALS, SUBSCRIPTION_STATUSES } from "./subscriptions/subscription.schema";
import { EVENT_STATES, EVENT_TYPES } from "../lib/event-types";
import { MONEY_DIRECTIONS } from "../lib/money-direction";

export type TStateColumn = { table: string; column: string; values: readonly string[] };

/** Table and column as in the database (snake_case); a NULL passes a CHECK, so nullable columns stay nullable. */
export const STATE_COLUMNS: readonly TStateColumn[] = [
  { table: "owners", column: "plan", values: PLAN_NAMES },
  { table: "owners", column: "plan_status", values: PLAN_STATUSES },
  { table: "sessions", column: "channel", values: SESSION_CHANNELS },
  { table: "agents", column: "status", values: AGENT_STATUSES },
  { table: "agent_grants", column: "level", values: GRANT_LEVELS },
  { table: "agent_grants", column: "over_limit", values: OVER_LIMIT_ACTIONS },
  { table: "approvals", column: "kind", values: APPROVAL_KINDS },
  { table: "approvals", column: "status", values: APPROVAL_STATUSES },
  { table: "financial_events", column: "type", values: EVENT_TYPES },
  { table: "financial_events", column: "state", values: EVENT_STATES },
  { table: "financial_events", column: "status", values: EVENT_STATUSES },
  { table: "financial_events", column: "source_type", values: SOURCE_TYPES },
  { table: "financial_events", column: "direction", values: MONEY_DIRECTIONS },
  { table: "decision_outcomes", column: "status", values: OUTCOME_STATUSES },
  { table: "subscriptions", column: "status", values: SUBSCRIPTION_STATUSES },
  { table: "subscriptions", column: "billing_interval", values: BILLING_INTERVALS },
  { table: "budget_reservations", column: "status", values: RESERVATION_STATUSES },
  { table: "goals", column: "kind", values: GOAL_KINDS },
  { table: "goals", column: "status", values: GOAL_STATUSES },
  { table: "integrations", column: "provider", values: PROVIDERS },
  { table: "integrations", column: "status", values: INTEGRATION_STATUSES },
  { table: "alerts", column: "severity", values: SEVERITIES },
  { table: "imports", column: "status", values: IMPORT_STATUSES },
  { table: "import_mappings", column: "kind", values: SAVED_MAPPING_KINDS },
  { table: "notifications", column: "severity", values: SEVERITIES },
  { table: "category_rules", column: "field", values: RULE_FIELDS },
  { table: "category_rules", column: "operator", values: RULE_OPERATORS },
  { table: "ad_budget_changes", column: "status", values: AD_BUDGET_CHANGE_STATUSES },
  // Added by the second migration (20261207234000_state_checks_more).
  { table: "approvals", column: "trigger", values: APPROVAL_TRIGGERS },
  { table: "audit_entries", column: "actor_type", values: AUDIT_ACTOR_TYPES },
  { table: "cash_snapshots", column: "data_class", values: DATA_CLASSES },
  { table: "ad_budget_changes", column: "platform", values: ADS_PROVIDERS },
  // Added by the third migration (20261207235000_state_checks_fx).
  { table: "financial_events", column: "fx_source", values: FX_SOURCES },
  { table: "fx_rates", column: "source", values: FX_SOURCES },
  { table: "integration_signals", column: "severity", values: SEVERITIES },
  { table: "notification_deliveries", column: "channel", values: DELIVERY_CHANNELS },
  // Added by the fourth migration (20261207235500_state_checks_grants).
  { table: "agent_grants", column: "scope", values: SCOPES },
  { table: "idempotency_records", column: "state", values: IDEMPOTENCY_STATES },
  // Added with OAuth (20261208030000_oauth).
  { table: "agents", column: "created_via", values: AGENT_CREATED_VIA },
];

export function stateCheckName(column: TStateColumn): string {
  return `${column.table}_${column.column}_check`;
}

function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `ALTER TABLE … ADD CONSTRAINT <table>_<column>_check CHECK (<column> IN (…))`, one per column. */
export function stateCheckSql(columns: readonly TStateColumn[] = STATE_COLUMNS): string {
  return columns
    .map(
      (column) =>
        `ALTER TABLE "${column.table}" ADD CONSTRAINT "${stateCheckName(column)}" CHECK ("${column.column}" IN (${column.values.map(quoteLiteral).join(", ")}));\n`,
    )
    .join("");
}
