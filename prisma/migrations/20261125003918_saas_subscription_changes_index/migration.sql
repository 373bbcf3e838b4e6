-- CreateIndex
CREATE INDEX "financial_events_subscription_changes_idx" ON "financial_events"("owner_id", "business_id", "occurred_on") WHERE (type = 'subscription_change' AND state = 'actual' AND status = 'confirmed' AND reconciled = false);
