-- The status-like columns hold one of a fixed set (server/state-columns.ts, scripts/state-checks-sql.ts).
ALTER TABLE "agent_grants" ADD CONSTRAINT "agent_grants_scope_check" CHECK ("scope" IN ('finances:observe', 'forecast:observe', 'ads'));
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_state_check" CHECK ("state" IN ('in_progress', 'completed'));
