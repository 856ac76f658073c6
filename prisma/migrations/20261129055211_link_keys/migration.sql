-- CreateTable
CREATE TABLE "link_keys" (
    "id" INTEGER NOT NULL,
    "key" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "link_keys_pkey" PRIMARY KEY ("id")
);
