-- AlterTable
ALTER TABLE "mail_outbox" ADD COLUMN     "recipient_key" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "requested_by" TEXT;

-- CreateIndex
CREATE INDEX "mail_outbox_recipient_key_created_at_idx" ON "mail_outbox"("recipient_key", "created_at");

-- CreateIndex
CREATE INDEX "mail_outbox_requested_by_created_at_idx" ON "mail_outbox"("requested_by", "created_at");

-- Mail already queued counts towards the limits of the mailbox it reached.
UPDATE "mail_outbox" SET "recipient_key" = lower(regexp_replace("to_address", '\+[^@]*@', '@'));
