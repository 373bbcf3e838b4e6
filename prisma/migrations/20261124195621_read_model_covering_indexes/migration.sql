-- DropIndex
DROP INDEX "cash_snapshots_owner_id_business_id_account_id_as_of_idx";

-- DropIndex
DROP INDEX "financial_events_owner_id_occurred_on_idx";

-- CreateIndex
CREATE INDEX "cash_snapshots_latest_idx" ON "cash_snapshots"("owner_id", "business_id", "personal", "account_id", "as_of" DESC, "updated_at" DESC, "id" DESC, "currency", "amount_minor");

-- CreateIndex
CREATE INDEX "financial_events_owner_day_idx" ON "financial_events"("owner_id", "occurred_on", "state", "status", "reconciled", "type", "direction", "currency", "fx_source", "fx_as_of", "fx_rate", "base_amount_minor", "created_at", "business_id", "project_id", "personal");
