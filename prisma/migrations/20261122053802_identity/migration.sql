-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "user_agent" TEXT,
    "ip" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_tokens" (
    "id" UUID NOT NULL,
    "identifier" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "allowed_ip_ranges" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_tokens" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_grants" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "daily_limit_minor" BIGINT,
    "monthly_limit_minor" BIGINT,
    "currency" CHAR(3),
    "over_limit" TEXT NOT NULL DEFAULT 'approval',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_limit_usage" (
    "grant_id" UUID NOT NULL,
    "period" TEXT NOT NULL,
    "period_start" DATE NOT NULL,
    "used_minor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "agent_limit_usage_pkey" PRIMARY KEY ("grant_id","period","period_start")
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "agent_id" UUID,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "procedure" TEXT,
    "params" JSONB NOT NULL,
    "amount_minor" BIGINT,
    "currency" CHAR(3),
    "trigger" TEXT NOT NULL,
    "result" JSONB,
    "decision_note" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "request_id" TEXT,
    "details" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_owner_id_created_at_id_idx" ON "sessions"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "login_tokens_token_hash_key" ON "login_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "login_tokens_identifier_idx" ON "login_tokens"("identifier");

-- CreateIndex
CREATE INDEX "agents_owner_id_created_at_id_idx" ON "agents"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "agent_tokens_token_hash_key" ON "agent_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "agent_tokens_agent_id_idx" ON "agent_tokens"("agent_id");

-- CreateIndex
CREATE INDEX "agent_grants_agent_id_idx" ON "agent_grants"("agent_id");

-- CreateIndex
CREATE INDEX "approvals_owner_id_created_at_id_idx" ON "approvals"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "approvals_owner_id_status_idx" ON "approvals"("owner_id", "status");

-- CreateIndex
CREATE INDEX "audit_entries_owner_id_created_at_id_idx" ON "audit_entries"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_owner_id_action_idx" ON "audit_entries"("owner_id", "action");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents" ADD CONSTRAINT "agents_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_tokens" ADD CONSTRAINT "agent_tokens_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_grants" ADD CONSTRAINT "agent_grants_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_limit_usage" ADD CONSTRAINT "agent_limit_usage_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "agent_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
