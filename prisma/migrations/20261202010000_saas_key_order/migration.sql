-- SaaS metrics (pinned-wave2 §2.7): the statement's window runs over each MRR key's events in
-- order, the key being (integration, currency, subscription) or, for an event that names no
-- subscription, (integration, currency, customer). The index below holds the rows in exactly
-- that order, so the window reads them presorted: no sort of the business's whole history
-- (2,178 rows at 100,000 events, about 21,000 at 1,000,000) in every request.
--
-- A btree orders plain columns only (the schema's drift check allows no expression index): the
-- customer reference that is a key's part becomes a stored generated column of its own, NULL
-- when the event names a subscription (its key) or is not a subscription_change. ADD COLUMN …
-- STORED fills it for the rows already written, and the database for every writer after.
ALTER TABLE "financial_events"
  ADD COLUMN "saas_key_customer_ref" TEXT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' AND NULLIF(payload ->> 'subscription_id', '') IS NULL
         THEN NULLIF(payload ->> 'customer_id', '') END) STORED;

-- The same rows and columns as before, in key order, then the window's (day, created_at, id).
-- At most one of the two references in a key is set, so an entry still fits a btree page
-- (each reference ≤ 1,000 bytes; longer ones are read through financial_events_saas_long_refs_idx).
DROP INDEX "financial_events_saas_levels_idx";
CREATE INDEX "financial_events_saas_levels_idx" ON "financial_events"("owner_id", "business_id", "integration_id", "currency", "saas_subscription_ref", "saas_key_customer_ref", "occurred_on", "created_at", "id", "amount_minor", "source_type", "confidence", "saas_change", "saas_mrr_minor", "saas_mrr_remainder_minor", "saas_customer_ref") WHERE (type = 'subscription_change' AND state = 'actual' AND status = 'confirmed' AND reconciled = false AND (saas_subscription_ref IS NULL OR octet_length(saas_subscription_ref) <= 1000) AND (saas_customer_ref IS NULL OR octet_length(saas_customer_ref) <= 1000));
