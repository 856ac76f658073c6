-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "system" BOOLEAN NOT NULL DEFAULT false;

-- The moderators' notices written before this column existed carry this prefix and no seat (a
-- spectator who once typed the prefix only loses the report button on that line).
UPDATE "chat_messages" SET "system" = true WHERE "from_player_id" IS NULL AND "body" LIKE '[moderator] %';
