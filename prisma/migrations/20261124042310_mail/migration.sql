-- AlterTable
ALTER TABLE "users" ADD COLUMN     "digest_due_at" TIMESTAMPTZ(3),
ADD COLUMN     "digest_hour" INTEGER NOT NULL DEFAULT 8,
ADD COLUMN     "email" TEXT,
ADD COLUMN     "email_verified_at" TIMESTAMPTZ(3),
ADD COLUMN     "notify_mode" TEXT NOT NULL DEFAULT 'each',
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC',
ADD COLUMN     "unsubscribe_token" TEXT NOT NULL DEFAULT (gen_random_uuid())::text;

-- CreateTable
CREATE TABLE "account_tokens" (
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "mail_outbox" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID,
    "dedupe_key" TEXT,
    "kind" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "unsubscribe_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_tokens_user_id_kind_created_at_idx" ON "account_tokens"("user_id", "kind", "created_at");

-- CreateIndex
CREATE INDEX "account_tokens_expires_at_idx" ON "account_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "mail_outbox_sent_at_failed_at_next_attempt_at_idx" ON "mail_outbox"("sent_at", "failed_at", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "mail_outbox_user_id_dedupe_key_key" ON "mail_outbox"("user_id", "dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_unsubscribe_token_key" ON "users"("unsubscribe_token");

-- AddForeignKey
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
