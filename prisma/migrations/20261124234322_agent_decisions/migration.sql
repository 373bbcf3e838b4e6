-- CreateTable
CREATE TABLE "agent_decisions" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "business_id" UUID,
    "project_id" UUID,
    "personal" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT NOT NULL,
    "rationale" TEXT,
    "amount_minor" BIGINT NOT NULL DEFAULT 0,
    "currency" CHAR(3) NOT NULL,
    "occurred_on" DATE NOT NULL,
    "expected_metric" TEXT,
    "expected_delta_minor" BIGINT,
    "expected_currency" CHAR(3),
    "expected_window_days" INTEGER,
    "approval_id" UUID,
    "ref_type" TEXT,
    "ref_id" TEXT,
    "reason" TEXT,
    "event_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decision_outcomes" (
    "decision_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "window_from" DATE NOT NULL,
    "window_to" DATE NOT NULL,
    "baseline_minor" BIGINT NOT NULL,
    "actual_minor" BIGINT NOT NULL,
    "delta_minor" BIGINT NOT NULL,
    "expected_delta_minor" BIGINT,
    "variance_minor" BIGINT,
    "verdict" TEXT,
    "coverage" TEXT NOT NULL,
    "base_currency" CHAR(3) NOT NULL,
    "measured_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "decision_outcomes_pkey" PRIMARY KEY ("decision_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_decisions_event_id_key" ON "agent_decisions"("event_id");

-- CreateIndex
CREATE INDEX "agent_decisions_owner_id_created_at_id_idx" ON "agent_decisions"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "agent_decisions_owner_id_agent_id_created_at_id_idx" ON "agent_decisions"("owner_id", "agent_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "agent_decisions" ADD CONSTRAINT "agent_decisions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_decisions" ADD CONSTRAINT "agent_decisions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decision_outcomes" ADD CONSTRAINT "decision_outcomes_decision_id_fkey" FOREIGN KEY ("decision_id") REFERENCES "agent_decisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
