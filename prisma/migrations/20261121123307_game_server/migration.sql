-- AlterTable
ALTER TABLE "users" ADD COLUMN     "banned_until" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "worlds" ADD COLUMN     "deadline_at" TIMESTAMPTZ(3),
ADD COLUMN     "deadline_claimed_until" TIMESTAMPTZ(3),
ADD COLUMN     "deadline_mode" TEXT NOT NULL DEFAULT 'live',
ADD COLUMN     "early_resolution" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "max_players" INTEGER NOT NULL DEFAULT 6,
ADD COLUMN     "phase_seconds" INTEGER NOT NULL DEFAULT 600,
ADD COLUMN     "step_key" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "world_seats" (
    "world_id" UUID NOT NULL,
    "player_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "colour" TEXT NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "left_at" TIMESTAMPTZ(3),
    "missed_turns" INTEGER NOT NULL DEFAULT 0,
    "ready_key" TEXT,

    CONSTRAINT "world_seats_pkey" PRIMARY KEY ("world_id","player_id")
);

-- CreateTable
CREATE TABLE "world_orders" (
    "world_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "user_id" UUID,
    "kind" TEXT NOT NULL,
    "order" JSONB NOT NULL,
    "events" JSONB NOT NULL,
    "patch" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "world_orders_pkey" PRIMARY KEY ("world_id","seq")
);

-- CreateTable
CREATE TABLE "world_snapshots" (
    "world_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "world_snapshots_pkey" PRIMARY KEY ("world_id","seq")
);

-- CreateTable
CREATE TABLE "world_cycles" (
    "world_id" UUID NOT NULL,
    "player_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "position" TEXT NOT NULL,
    "start_turn" INTEGER NOT NULL,
    "kingdom_turn" INTEGER,
    "empire_turn" INTEGER,
    "end_turn" INTEGER,
    "end_reason" TEXT,
    "vp" INTEGER NOT NULL DEFAULT 0,
    "updated_seq" INTEGER NOT NULL,

    CONSTRAINT "world_cycles_pkey" PRIMARY KEY ("world_id","player_id","number")
);

-- CreateTable
CREATE TABLE "vp_ledger" (
    "world_id" UUID NOT NULL,
    "player_id" TEXT NOT NULL,
    "cycle" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "column" TEXT NOT NULL,
    "value" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,

    CONSTRAINT "vp_ledger_pkey" PRIMARY KEY ("world_id","player_id","cycle","turn","column")
);

-- CreateTable
CREATE TABLE "chat_messages" (
    "id" BIGSERIAL NOT NULL,
    "world_id" UUID NOT NULL,
    "from_user_id" UUID NOT NULL,
    "from_player_id" TEXT,
    "to_player_id" TEXT,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "world_seats_user_id_idx" ON "world_seats"("user_id");

-- CreateIndex
CREATE INDEX "chat_messages_world_id_id_idx" ON "chat_messages"("world_id", "id");

-- CreateIndex
CREATE INDEX "worlds_deadline_at_idx" ON "worlds"("deadline_at");

-- AddForeignKey
ALTER TABLE "world_seats" ADD CONSTRAINT "world_seats_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_seats" ADD CONSTRAINT "world_seats_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_orders" ADD CONSTRAINT "world_orders_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_snapshots" ADD CONSTRAINT "world_snapshots_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "world_cycles" ADD CONSTRAINT "world_cycles_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vp_ledger" ADD CONSTRAINT "vp_ledger_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_world_id_fkey" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_from_user_id_fkey" FOREIGN KEY ("from_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
