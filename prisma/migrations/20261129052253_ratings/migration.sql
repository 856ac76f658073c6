-- AlterTable
ALTER TABLE "worlds" ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "player_ratings" (
    "user_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "results" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_ratings_pkey" PRIMARY KEY ("user_id","pool")
);

-- CreateTable
CREATE TABLE "rated_results" (
    "world_id" UUID NOT NULL,
    "result_key" TEXT NOT NULL,
    "victory" TEXT NOT NULL,
    "table" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rated_results_pkey" PRIMARY KEY ("world_id","result_key")
);

-- CreateTable
CREATE TABLE "rating_changes" (
    "world_id" UUID NOT NULL,
    "result_key" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "mu_before" DOUBLE PRECISION NOT NULL,
    "sigma_before" DOUBLE PRECISION NOT NULL,
    "mu_after" DOUBLE PRECISION NOT NULL,
    "sigma_after" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("world_id","result_key","user_id","pool")
);

-- CreateIndex
CREATE INDEX "player_ratings_pool_mu_idx" ON "player_ratings"("pool", "mu");

-- CreateIndex
CREATE INDEX "rated_results_created_at_idx" ON "rated_results"("created_at");

-- CreateIndex
CREATE INDEX "rating_changes_user_id_pool_created_at_idx" ON "rating_changes"("user_id", "pool", "created_at");

-- AddForeignKey
ALTER TABLE "player_ratings" ADD CONSTRAINT "player_ratings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rated_results" ADD CONSTRAINT "rated_results_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_world_id_result_key_fkey" FOREIGN KEY ("world_id", "result_key") REFERENCES "rated_results"("world_id", "result_key") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
