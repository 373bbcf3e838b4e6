-- AlterTable
ALTER TABLE "agent_tokens" ADD COLUMN     "expiry_notified_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "agent_tokens_expiry_unnotified_idx" ON "agent_tokens"("expires_at") WHERE (revoked_at IS NULL AND expiry_notified_at IS NULL);
