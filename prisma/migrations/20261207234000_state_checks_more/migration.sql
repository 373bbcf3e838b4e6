-- The status-like columns hold one of a fixed set (server/state-columns.ts, scripts/state-checks-sql.ts).
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_trigger_check" CHECK ("trigger" IN ('level_recommend', 'over_limit', 'request', 'within_limits', 'owner'));
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_actor_type_check" CHECK ("actor_type" IN ('owner', 'agent', 'integration', 'system', 'public'));
ALTER TABLE "cash_snapshots" ADD CONSTRAINT "cash_snapshots_data_class_check" CHECK ("data_class" IN ('real', 'manual'));
ALTER TABLE "ad_budget_changes" ADD CONSTRAINT "ad_budget_changes_platform_check" CHECK ("platform" IN ('social_ads', 'search_ads'));
