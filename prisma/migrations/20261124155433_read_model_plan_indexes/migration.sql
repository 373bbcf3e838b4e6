-- Indexes the read models' plans need (scripts/bench/read.ts, bench-results/read-plans.txt):
--   open commitments: K7's planned rows were a sequential scan of every event;
--   integration kinds: coverage's "did this generic integration send revenue / out events" EXISTS
--     scanned every event when the answer was no (index-only now);
--   newest entries: coverage's newest manual or imported entry per scope and kind (K9), one
--     backward index step per (scope, type, source) instead of every event of the scope.

-- CreateIndex
CREATE INDEX "financial_events_open_commitments_idx" ON "financial_events"("owner_id", "occurred_on") WHERE (state = 'planned' AND status = 'confirmed' AND reconciled = false AND fulfilled_by_event_id IS NULL);

-- CreateIndex
CREATE INDEX "financial_events_integration_kinds_idx" ON "financial_events"("integration_id", "type", "owner_id", "direction") WHERE (integration_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "financial_events_newest_entries_idx" ON "financial_events"("owner_id", "business_id", "type", "source_type", "created_at") WHERE (status = 'confirmed');
