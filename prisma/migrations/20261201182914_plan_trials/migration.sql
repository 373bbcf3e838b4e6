-- AlterTable
ALTER TABLE "owners" ADD COLUMN     "trial_ending_notified_for" TIMESTAMPTZ(3),
ADD COLUMN     "trial_ends_at" TIMESTAMPTZ(3),
ADD COLUMN     "trial_used" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "financial_events_manual_created_idx" ON "financial_events"("owner_id", "created_at") WHERE (source_type = 'MANUAL');
