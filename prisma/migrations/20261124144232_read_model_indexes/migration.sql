-- The read models' indexes (pinned-wave2 §2.1 K10): sums by type over a period, a
-- subscription's charge on a day, an agent's events, the latest cash snapshot per account.

-- CreateIndex
CREATE INDEX "cash_snapshots_owner_id_business_id_account_id_as_of_idx" ON "cash_snapshots"("owner_id", "business_id", "account_id", "as_of");

-- CreateIndex
CREATE INDEX "financial_events_owner_id_type_occurred_on_idx" ON "financial_events"("owner_id", "type", "occurred_on");

-- CreateIndex
CREATE INDEX "financial_events_subscription_id_occurred_on_idx" ON "financial_events"("subscription_id", "occurred_on") WHERE (subscription_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "financial_events_owner_id_agent_id_occurred_on_idx" ON "financial_events"("owner_id", "agent_id", "occurred_on") WHERE (agent_id IS NOT NULL);
