-- CreateTable
CREATE TABLE "financial_events" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "project_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'confirmed',
    "amount_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "base_amount_minor" BIGINT,
    "base_currency" CHAR(3),
    "fx_rate" DECIMAL(24,8),
    "fx_as_of" DATE,
    "fx_source" TEXT,
    "occurred_on" DATE NOT NULL,
    "category" TEXT,
    "description" TEXT,
    "source_type" TEXT NOT NULL,
    "integration_id" UUID,
    "external_id" TEXT,
    "provenance" JSONB,
    "confidence" DECIMAL(4,3) NOT NULL DEFAULT 1,
    "payload" JSONB,
    "subscription_id" UUID,
    "refunds_event_id" UUID,
    "supersedes_event_id" UUID,
    "supersedes_event_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "fulfilled_by_event_id" UUID,
    "variance_minor" BIGINT,
    "direction" TEXT,
    "reconciled" BOOLEAN NOT NULL DEFAULT false,
    "agent_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "financial_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "project_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "billing_interval" TEXT NOT NULL,
    "next_charge_on" DATE NOT NULL,
    "category" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "source_type" TEXT NOT NULL DEFAULT 'MANUAL',
    "provenance" JSONB,
    "confidence" DECIMAL(4,3) NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_allocations" (
    "subscription_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "share_bps" INTEGER NOT NULL,

    CONSTRAINT "subscription_allocations_pkey" PRIMARY KEY ("subscription_id","project_id")
);

-- CreateTable
CREATE TABLE "subscription_capacities" (
    "subscription_id" UUID NOT NULL,
    "unit" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscription_capacities_pkey" PRIMARY KEY ("subscription_id")
);

-- CreateTable
CREATE TABLE "budget_reservations" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "project_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "amount_minor" BIGINT NOT NULL,
    "released_minor" BIGINT NOT NULL DEFAULT 0,
    "currency" CHAR(3) NOT NULL,
    "purpose" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "expires_on" DATE,
    "agent_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "budget_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cash_snapshots" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "business_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "amount_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "as_of" TIMESTAMPTZ(3) NOT NULL,
    "account_id" TEXT NOT NULL,
    "iban_last4" TEXT,
    "external_id" TEXT NOT NULL,
    "data_class" TEXT NOT NULL,
    "source_type" TEXT NOT NULL,
    "integration_id" UUID,
    "provenance" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cash_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fx_rates" (
    "source" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "base" CHAR(3) NOT NULL,
    "quote" CHAR(3) NOT NULL,
    "rate" DECIMAL(24,8) NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fx_rates_pkey" PRIMARY KEY ("source","day","base","quote")
);

-- CreateIndex
CREATE INDEX "financial_events_owner_id_created_at_id_idx" ON "financial_events"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "financial_events_owner_id_occurred_on_idx" ON "financial_events"("owner_id", "occurred_on");

-- CreateIndex
CREATE INDEX "financial_events_owner_id_business_id_occurred_on_idx" ON "financial_events"("owner_id", "business_id", "occurred_on");

-- CreateIndex
CREATE UNIQUE INDEX "financial_events_integration_id_external_id_key" ON "financial_events"("integration_id", "external_id");

-- CreateIndex
CREATE INDEX "subscriptions_owner_id_created_at_id_idx" ON "subscriptions"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriptions_owner_id_business_id_idx" ON "subscriptions"("owner_id", "business_id");

-- CreateIndex
CREATE INDEX "budget_reservations_owner_id_created_at_id_idx" ON "budget_reservations"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "cash_snapshots_owner_id_created_at_id_idx" ON "cash_snapshots"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "cash_snapshots_owner_id_external_id_key" ON "cash_snapshots"("owner_id", "external_id");

-- CreateIndex
CREATE INDEX "fx_rates_source_base_quote_day_idx" ON "fx_rates"("source", "base", "quote", "day" DESC);

-- AddForeignKey
ALTER TABLE "financial_events" ADD CONSTRAINT "financial_events_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_allocations" ADD CONSTRAINT "subscription_allocations_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_capacities" ADD CONSTRAINT "subscription_capacities_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_reservations" ADD CONSTRAINT "budget_reservations_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cash_snapshots" ADD CONSTRAINT "cash_snapshots_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
