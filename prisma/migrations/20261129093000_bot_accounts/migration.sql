-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "bot" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "label" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "bot_owner_id" UUID;

-- CreateIndex
CREATE INDEX "users_bot_owner_id_idx" ON "users"("bot_owner_id");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_bot_owner_id_fkey" FOREIGN KEY ("bot_owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
