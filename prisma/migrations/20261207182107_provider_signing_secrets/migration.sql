-- DropIndex
DROP INDEX "integrations_provider_account_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "integrations_provider_account_id_owner_id_key" ON "integrations"("provider", "account_id", "owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "integrations_search_ads_account_key" ON "integrations"("provider", "account_id") WHERE (provider = 'search_ads');
