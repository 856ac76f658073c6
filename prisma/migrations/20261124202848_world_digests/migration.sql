-- CreateTable
CREATE TABLE "world_digests" (
    "world_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "status" "WorldStatus" NOT NULL,
    "step_key" TEXT NOT NULL,
    "deadline_at" TIMESTAMPTZ(3),
    "body" JSONB NOT NULL,

    CONSTRAINT "world_digests_pkey" PRIMARY KEY ("world_id")
);

-- AddForeignKey
ALTER TABLE "world_digests" ADD CONSTRAINT "world_digests_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;
