-- AlterTable
ALTER TABLE "financial_events" ADD COLUMN     "uncounted_at" TIMESTAMPTZ(3);

-- When an event stops counting (K3: confirmed, not reconciled, not fulfilled → voided,
-- reconciled or fulfilled), the update that did it stamps uncounted_at with its updated_at
-- (the writer's clock; now() when the writer left updated_at alone). A trigger, so no writer
-- (the manual void, a restatement, the reconciliation, a fulfilment, a later one) can forget it.
-- The WHEN clause keeps every other update (bulk rebases, category rules) free of the call.
CREATE FUNCTION financial_events_uncounted_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.uncounted_at := CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN NEW.updated_at ELSE now() END;
  RETURN NEW;
END
$$;

-- Events that stopped counting before this column existed: their last update is the best
-- record of when (an event stored already voided or reconciled gets its creation time, which
-- changes nothing: it never counted).
UPDATE "financial_events" SET "uncounted_at" = "updated_at"
 WHERE "status" <> 'confirmed' OR "reconciled" OR "fulfilled_by_event_id" IS NOT NULL;

CREATE TRIGGER financial_events_uncounted_at
  BEFORE UPDATE OF "status", "reconciled", "fulfilled_by_event_id" ON "financial_events"
  FOR EACH ROW
  WHEN (NEW.uncounted_at IS NULL
        AND OLD.status = 'confirmed' AND OLD.reconciled = false AND OLD.fulfilled_by_event_id IS NULL
        AND (NEW.status <> 'confirmed' OR NEW.reconciled OR NEW.fulfilled_by_event_id IS NOT NULL))
  EXECUTE FUNCTION financial_events_uncounted_at();

-- CreateTable
CREATE TABLE "daily_briefs_sent" (
    "owner_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_briefs_sent_pkey" PRIMARY KEY ("owner_id","date")
);

-- CreateIndex
CREATE INDEX "financial_events_uncounted_idx" ON "financial_events"("owner_id", "uncounted_at") WHERE (uncounted_at IS NOT NULL);

-- AddForeignKey
ALTER TABLE "daily_briefs_sent" ADD CONSTRAINT "daily_briefs_sent_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
