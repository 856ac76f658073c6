-- AlterTable
ALTER TABLE "users" ADD COLUMN     "profile_hidden" BOOLEAN NOT NULL DEFAULT false;
