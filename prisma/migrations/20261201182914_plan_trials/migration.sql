-- AlterTable
ALTER TABLE "owners" ADD COLUMN     "trial_ending_notified_for" TIMESTAMPTZ(3),
ADD COLUMN     "trial_ends_at" TIMESTAMPTZ(3),
ADD COLUMN     "trial_used" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "financial_events_manual_created_idx" ON "financial_events"("owner_id", "created_at") WHERE (source_type = 'MANUAL');

-- Owners from before plans had no limits: they keep none (business, active). New owners start on
-- free (the column's default); the static owner is created on business (server/auth/authenticate.ts).
UPDATE "owners" SET "plan" = 'business' WHERE "plan" = 'free' AND "plan_status" = 'active';
