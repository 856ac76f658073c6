-- AlterTable
ALTER TABLE "vp_ledger" ADD COLUMN     "detail" JSONB;
