-- A mapping is now kept per layout (kind layout, key: the header signature) and per bank
-- account (kind account, key: the normalized account). The saved layouts stay: their
-- signature becomes their key.

-- DropIndex
DROP INDEX "import_mappings_owner_id_business_id_signature_key";

-- AlterTable
ALTER TABLE "import_mappings" RENAME COLUMN "signature" TO "key";
ALTER TABLE "import_mappings" ADD COLUMN     "account" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'layout';

-- CreateIndex
CREATE UNIQUE INDEX "import_mappings_owner_id_business_id_kind_key_key" ON "import_mappings"("owner_id", "business_id", "kind", "key");
