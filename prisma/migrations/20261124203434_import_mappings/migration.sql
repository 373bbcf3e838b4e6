-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "signature" TEXT,
ADD COLUMN     "source" BYTEA;

-- CreateTable
CREATE TABLE "import_mappings" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID NOT NULL,
    "signature" TEXT NOT NULL,
    "mapping" JSONB NOT NULL,
    "currency_default" CHAR(3),
    "header" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "import_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "import_mappings_owner_id_business_id_signature_key" ON "import_mappings"("owner_id", "business_id", "signature");
