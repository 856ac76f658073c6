-- AlterTable
ALTER TABLE "users" ADD COLUMN     "webhook_url" TEXT;

-- AlterTable
ALTER TABLE "world_seats" ADD COLUMN     "notified_key" TEXT;
