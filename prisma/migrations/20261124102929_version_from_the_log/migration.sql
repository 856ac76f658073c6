-- AlterTable
ALTER TABLE "worlds" DROP COLUMN "version";
