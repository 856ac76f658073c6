-- AlterTable
ALTER TABLE "world_orders" ADD COLUMN     "bot" TEXT;

-- AlterTable
ALTER TABLE "world_seats" ADD COLUMN     "bot" TEXT,
ADD COLUMN     "stand_in" TEXT,
ALTER COLUMN "user_id" DROP NOT NULL;
