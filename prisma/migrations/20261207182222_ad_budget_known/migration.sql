-- Agent limits count what the service knows (pinned-wave3 §1.1). previous_daily_budget_minor now
-- holds the campaign's budget as the service knew it; what the caller said moves to
-- claimed_previous_daily_budget_minor, and the amount counted against the limits is kept.
-- Existing changes: the caller's figure is the claim; the known one is the latest change of the
-- campaign applied before it was written (no platform report was stored then); the counted
-- amount is what was counted at the time (max(0, new − claimed), or new without a claim).
-- AlterTable
ALTER TABLE "ad_budget_changes" ADD COLUMN     "claimed_previous_daily_budget_minor" BIGINT,
ADD COLUMN     "counted_daily_minor" BIGINT;

UPDATE "ad_budget_changes" c
   SET "claimed_previous_daily_budget_minor" = c."previous_daily_budget_minor",
       "counted_daily_minor" = CASE WHEN c."previous_daily_budget_minor" IS NULL THEN c."new_daily_budget_minor"
                                    ELSE GREATEST(c."new_daily_budget_minor" - c."previous_daily_budget_minor", 0) END,
       "previous_daily_budget_minor" = (
         SELECT p."new_daily_budget_minor" FROM "ad_budget_changes" p
          WHERE p."owner_id" = c."owner_id" AND p."integration_id" = c."integration_id"
            AND p."campaign_id" = c."campaign_id" AND p."status" = 'applied' AND p."currency" = c."currency"
            AND p."applied_at" <= c."created_at"
          ORDER BY p."applied_at" DESC, p."created_at" DESC, p."id" DESC
          LIMIT 1);

ALTER TABLE "ad_budget_changes" ALTER COLUMN "counted_daily_minor" SET NOT NULL;

-- CreateTable
CREATE TABLE "campaign_budget_reports" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "daily_budget_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,
    "signal_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_budget_reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_budget_reports_signal_id_key" ON "campaign_budget_reports"("signal_id");

-- CreateIndex
CREATE INDEX "campaign_budget_reports_owner_id_integration_id_campaign_id_idx" ON "campaign_budget_reports"("owner_id", "integration_id", "campaign_id", "reported_at" DESC);

-- AddForeignKey
ALTER TABLE "campaign_budget_reports" ADD CONSTRAINT "campaign_budget_reports_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
