-- CreateTable
CREATE TABLE "world_notes" (
    "user_id" UUID NOT NULL,
    "world_id" UUID NOT NULL,
    "body" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "world_notes_pkey" PRIMARY KEY ("user_id","world_id")
);

-- CreateIndex
CREATE INDEX "world_notes_world_id_idx" ON "world_notes"("world_id");

-- AddForeignKey
ALTER TABLE "world_notes" ADD CONSTRAINT "world_notes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_notes" ADD CONSTRAINT "world_notes_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;
