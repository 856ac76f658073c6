-- AlterTable
ALTER TABLE "world_seats" ADD COLUMN     "seen_at" TIMESTAMPTZ(3),
ADD COLUMN     "seen_version" INTEGER;
