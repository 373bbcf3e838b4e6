-- AlterTable
ALTER TABLE "financial_events" ADD COLUMN     "chain_external_id" TEXT;

-- CreateTable
CREATE TABLE "integrations" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "business_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'active',
    "account_id" TEXT,
    "secret_encrypted" BYTEA,
    "credentials_encrypted" BYTEA,
    "config" JSONB,
    "last_sync_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integration_signals" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "business_id" UUID,
    "amount_minor" BIGINT,
    "currency" CHAR(3),
    "ref" JSONB,
    "message" TEXT,
    "audit_entry_id" UUID NOT NULL,
    "alert_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integration_signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "integration_id" UUID,
    "code" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "amount_minor" BIGINT,
    "currency" CHAR(3),
    "ref_type" TEXT NOT NULL,
    "ref_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "integrations_owner_id_created_at_id_idx" ON "integrations"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "integrations_owner_id_provider_idx" ON "integrations"("owner_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "integrations_provider_account_id_key" ON "integrations"("provider", "account_id");

-- CreateIndex
CREATE INDEX "integration_signals_owner_id_created_at_idx" ON "integration_signals"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "integration_signals_integration_id_external_id_key" ON "integration_signals"("integration_id", "external_id");

-- CreateIndex
CREATE INDEX "alerts_owner_id_created_at_id_idx" ON "alerts"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "financial_events_integration_id_chain_external_id_idx" ON "financial_events"("integration_id", "chain_external_id");

-- AddForeignKey
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
