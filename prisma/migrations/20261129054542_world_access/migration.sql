-- AlterTable
ALTER TABLE "worlds" ADD COLUMN     "access" TEXT NOT NULL DEFAULT 'public',
ADD COLUMN     "invite_token_hash" TEXT,
ADD COLUMN     "reserved_seats" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "spectators" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "world_invites" (
    "world_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "via" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "world_invites_pkey" PRIMARY KEY ("world_id","user_id")
);

-- CreateIndex
CREATE INDEX "world_invites_user_id_idx" ON "world_invites"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "worlds_invite_token_hash_key" ON "worlds"("invite_token_hash");

-- AddForeignKey
ALTER TABLE "world_invites" ADD CONSTRAINT "world_invites_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_invites" ADD CONSTRAINT "world_invites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
