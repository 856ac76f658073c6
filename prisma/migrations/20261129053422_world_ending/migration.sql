-- AlterTable
ALTER TABLE "worlds" ADD COLUMN     "end_at" TIMESTAMPTZ(3),
ADD COLUMN     "end_turn" INTEGER,
ADD COLUMN     "end_until" TEXT NOT NULL DEFAULT 'open';
