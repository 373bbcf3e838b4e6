-- CreateTable
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID NOT NULL,
    "project_id" UUID,
    "preset" TEXT NOT NULL,
    "mapping" JSONB NOT NULL,
    "settings" JSONB NOT NULL,
    "file_name" TEXT,
    "file_bytes" INTEGER NOT NULL,
    "total_rows" INTEGER NOT NULL,
    "listed_rows" INTEGER NOT NULL,
    "summary" JSONB NOT NULL,
    "proposals" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'previewed',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_row_pages" (
    "import_id" UUID NOT NULL,
    "page_no" INTEGER NOT NULL,
    "rows" JSONB NOT NULL,

    CONSTRAINT "import_row_pages_pkey" PRIMARY KEY ("import_id","page_no")
);

-- CreateIndex
CREATE INDEX "imports_owner_id_created_at_id_idx" ON "imports"("owner_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "import_row_pages" ADD CONSTRAINT "import_row_pages_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
