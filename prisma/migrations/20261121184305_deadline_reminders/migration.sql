-- AlterTable
ALTER TABLE "world_seats" ADD COLUMN     "reminded_key" TEXT;
