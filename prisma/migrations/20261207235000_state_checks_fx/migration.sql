-- The status-like columns hold one of a fixed set (server/state-columns.ts, scripts/state-checks-sql.ts).
ALTER TABLE "financial_events" ADD CONSTRAINT "financial_events_fx_source_check" CHECK ("fx_source" IN ('ecb', 'mock', 'identity'));
ALTER TABLE "fx_rates" ADD CONSTRAINT "fx_rates_source_check" CHECK ("source" IN ('ecb', 'mock', 'identity'));
ALTER TABLE "integration_signals" ADD CONSTRAINT "integration_signals_severity_check" CHECK ("severity" IN ('info', 'warning', 'critical'));
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_channel_check" CHECK ("channel" IN ('in_app', 'webhook', 'email'));
