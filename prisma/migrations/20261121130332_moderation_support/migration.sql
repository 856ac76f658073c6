-- AlterTable
ALTER TABLE "users" ADD COLUMN     "ban_reason" TEXT,
ADD COLUMN     "muted_until" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "world_seats" ADD COLUMN     "absent" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "worlds" ADD COLUMN     "pause_reason" TEXT,
ADD COLUMN     "paused_remaining_ms" INTEGER;

-- CreateTable
CREATE TABLE "moderation_actions" (
    "id" BIGSERIAL NOT NULL,
    "actor_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "world_id" UUID,
    "target_user_id" UUID,
    "reason" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moderation_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" BIGSERIAL NOT NULL,
    "reporter_id" UUID NOT NULL,
    "world_id" UUID,
    "chat_message_id" BIGINT,
    "target_user_id" UUID,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolved_by_id" UUID,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "moderation_actions_world_id_idx" ON "moderation_actions"("world_id");

-- CreateIndex
CREATE INDEX "moderation_actions_target_user_id_idx" ON "moderation_actions"("target_user_id");

-- CreateIndex
CREATE INDEX "reports_status_created_at_idx" ON "reports"("status", "created_at");

-- The moderation audit log is append-only: no UPDATE, DELETE or TRUNCATE, whoever asks.
CREATE FUNCTION moderation_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'moderation_actions is append-only'; END $$;
CREATE TRIGGER moderation_actions_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON moderation_actions
  FOR EACH STATEMENT EXECUTE FUNCTION moderation_actions_append_only();
