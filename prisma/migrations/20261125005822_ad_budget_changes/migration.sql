-- CreateTable
CREATE TABLE "ad_budget_changes" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "account_id" TEXT,
    "campaign_id" TEXT NOT NULL,
    "ad_set_id" TEXT,
    "ad_group_id" TEXT,
    "previous_daily_budget_minor" BIGINT,
    "new_daily_budget_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "effective_on" DATE NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'planned',
    "approval_id" UUID NOT NULL,
    "limit_checked" UUID,
    "decision_id" UUID,
    "agent_id" UUID,
    "reason" TEXT,
    "note" TEXT,
    "applied_at" TIMESTAMPTZ(3),
    "failure_code" TEXT,
    "failure_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ad_budget_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ad_budget_changes_owner_id_integration_id_campaign_id_statu_idx" ON "ad_budget_changes"("owner_id", "integration_id", "campaign_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "ad_budget_changes_owner_id_created_at_id_idx" ON "ad_budget_changes"("owner_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "ad_budget_changes" ADD CONSTRAINT "ad_budget_changes_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
