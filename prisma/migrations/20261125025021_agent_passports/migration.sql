-- CreateTable
CREATE TABLE "agent_passports" (
    "agent_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT '',
    "responsibilities" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowed_actions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "max_daily_spend_minor" BIGINT,
    "currency" CHAR(3),
    "business_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "notes" TEXT,
    "escalation" TEXT NOT NULL DEFAULT '',
    "template_id" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_passports_pkey" PRIMARY KEY ("agent_id")
);

-- AddForeignKey
ALTER TABLE "agent_passports" ADD CONSTRAINT "agent_passports_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
