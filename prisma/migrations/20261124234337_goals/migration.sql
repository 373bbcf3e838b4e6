-- CreateTable
CREATE TABLE "goals" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "project_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "target_amount_minor" BIGINT,
    "currency" CHAR(3),
    "target_days" INTEGER,
    "target_date" DATE,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "goals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "goals_owner_id_created_at_id_idx" ON "goals"("owner_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "goals" ADD CONSTRAINT "goals_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
