-- A cash snapshot is identified by its scope, account and day, not by its account and day
-- alone: two businesses (or a business and the personal scope) may share an account label.

-- DropIndex
DROP INDEX "cash_snapshots_owner_id_external_id_key";

-- AlterTable: existing rows get the scope they already have.
ALTER TABLE "cash_snapshots" ADD COLUMN     "scope" TEXT;
UPDATE "cash_snapshots"
SET "scope" = CASE WHEN "business_id" IS NULL THEN 'personal' ELSE 'business:' || "business_id"::text END;
ALTER TABLE "cash_snapshots" ALTER COLUMN "scope" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "cash_snapshots_owner_id_scope_external_id_key" ON "cash_snapshots"("owner_id", "scope", "external_id");
