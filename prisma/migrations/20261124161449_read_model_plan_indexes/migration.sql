-- Indexes the read models' plans need (scripts/bench/read.ts, bench-results/read-plans.txt):
--   open commitments: K7's planned rows were a sequential scan of every event;
--   integration kinds: coverage's "did this generic integration send revenue / out events" EXISTS
--     scanned every event when the answer was no (index-only now);
--   business and personal entries: coverage's newest manual or imported revenue or expense per
--     scope (K9), one backward index step per kind instead of every event of the scope; only
--     the rows coverage asks about, so integrations' events pay nothing for them.

-- CreateIndex
CREATE INDEX "financial_events_open_commitments_idx" ON "financial_events"("owner_id", "occurred_on") WHERE (state = 'planned' AND status = 'confirmed' AND reconciled = false AND fulfilled_by_event_id IS NULL);

-- CreateIndex
CREATE INDEX "financial_events_integration_kinds_idx" ON "financial_events"("integration_id", "type", "owner_id", "direction") WHERE (integration_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "financial_events_business_entries_idx" ON "financial_events"("owner_id", "business_id", "type", "source_type", "created_at") WHERE (status = 'confirmed' AND (source_type = 'MANUAL' OR source_type = 'IMPORT') AND (type = 'revenue' OR type = 'expense' OR type = 'recurring_expense') AND business_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "financial_events_personal_entries_idx" ON "financial_events"("owner_id", "type", "source_type", "created_at") WHERE (status = 'confirmed' AND (source_type = 'MANUAL' OR source_type = 'IMPORT') AND (type = 'revenue' OR type = 'expense' OR type = 'recurring_expense') AND personal = true);
