-- CreateTable
CREATE TABLE "login_throttles" (
    "username_key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "next_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_throttles_pkey" PRIMARY KEY ("username_key")
);

-- CreateTable
CREATE TABLE "known_devices" (
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "known_devices_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "known_devices_user_id_idx" ON "known_devices"("user_id");

-- CreateIndex
CREATE INDEX "chat_messages_from_user_id_created_at_idx" ON "chat_messages"("from_user_id", "created_at");

-- CreateIndex
CREATE INDEX "worlds_created_by_id_created_at_idx" ON "worlds"("created_by_id", "created_at");

-- AddForeignKey
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
