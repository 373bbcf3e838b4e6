-- SaaS metrics (pinned-wave2 §2.7) read five things of a subscription_change event's payload:
-- the subscription and the customer it names, the MRR after it, a remainder of ARR, and the
-- movement it counts as. Stored generated columns hold them (NULL for every other type), so
-- every writer (webhooks, ingest, imports, manual entries, later updates of the payload) fills
-- them without knowing, and the rows written before this migration get them now (ADD COLUMN …
-- STORED rewrites the table). The expressions are the read model's own (saas-metrics.ts):
-- a text field NULL when absent, JSON null or empty; an integer only when it is a JSON integer
-- of at most 18 characters, never a failed cast; the movement from `change`, else the sign.
ALTER TABLE "financial_events"
  ADD COLUMN "saas_subscription_ref" TEXT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' THEN NULLIF(payload ->> 'subscription_id', '') END) STORED,
  ADD COLUMN "saas_customer_ref" TEXT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' THEN NULLIF(payload ->> 'customer_id', '') END) STORED,
  ADD COLUMN "saas_mrr_minor" BIGINT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' AND jsonb_typeof(payload -> 'mrr_minor') = 'number'
              AND strpos(payload ->> 'mrr_minor', '.') = 0 AND length(payload ->> 'mrr_minor') <= 18
         THEN (payload ->> 'mrr_minor')::bigint END) STORED,
  ADD COLUMN "saas_mrr_remainder_minor" BIGINT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' AND jsonb_typeof(payload -> 'mrr_remainder_minor') = 'number'
              AND strpos(payload ->> 'mrr_remainder_minor', '.') = 0 AND length(payload ->> 'mrr_remainder_minor') <= 18
         THEN (payload ->> 'mrr_remainder_minor')::bigint END) STORED,
  ADD COLUMN "saas_change" TEXT GENERATED ALWAYS AS (
    CASE WHEN type = 'subscription_change' THEN
      CASE payload ->> 'change'
        WHEN 'new' THEN 'new' WHEN 'expansion' THEN 'expansion' WHEN 'reactivation' THEN 'reactivation'
        WHEN 'contraction' THEN 'contraction' WHEN 'churned' THEN 'churned' WHEN 'churn' THEN 'churned'
        ELSE CASE WHEN amount_minor >= 0 THEN 'expansion' ELSE 'contraction' END END END) STORED;

-- Every column the SaaS statement reads of a counted subscription_change, in the order of
-- (scope, day, created_at, id): the whole history is an index-only scan, and the newest
-- movements a backward walk. A btree entry holds at most 2,704 bytes: a row whose subscription
-- or customer reference is longer than 1,000 bytes is left out (an insert must never fail on
-- it) and read through the next index instead.
CREATE INDEX "financial_events_saas_levels_idx" ON "financial_events"("owner_id", "business_id", "occurred_on", "created_at", "id", "integration_id", "currency", "amount_minor", "source_type", "confidence", "saas_change", "saas_mrr_minor", "saas_mrr_remainder_minor", "saas_customer_ref", "saas_subscription_ref") WHERE (type = 'subscription_change' AND state = 'actual' AND status = 'confirmed' AND reconciled = false AND (saas_subscription_ref IS NULL OR octet_length(saas_subscription_ref) <= 1000) AND (saas_customer_ref IS NULL OR octet_length(saas_customer_ref) <= 1000));

-- The counted subscription_change rows the index above leaves out (none, as a rule).
CREATE INDEX "financial_events_saas_long_refs_idx" ON "financial_events"("owner_id", "business_id", "occurred_on") WHERE (type = 'subscription_change' AND state = 'actual' AND status = 'confirmed' AND reconciled = false AND (octet_length(saas_subscription_ref) > 1000 OR octet_length(saas_customer_ref) > 1000));
