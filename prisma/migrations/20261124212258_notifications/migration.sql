-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "ref_type" TEXT,
    "ref_id" TEXT,
    "read_at" TIMESTAMPTZ(3),
    "delivered" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_preferences" (
    "owner_id" UUID NOT NULL,
    "webhook_enabled" BOOLEAN NOT NULL DEFAULT true,
    "webhook_min_severity" TEXT NOT NULL DEFAULT 'info',
    "email_enabled" BOOLEAN NOT NULL DEFAULT false,
    "email_min_severity" TEXT NOT NULL DEFAULT 'critical',
    "muted_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("owner_id")
);

-- CreateIndex
CREATE INDEX "notifications_owner_id_created_at_id_idx" ON "notifications"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_unread_idx" ON "notifications"("owner_id", "created_at" DESC) WHERE (read_at IS NULL);

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
