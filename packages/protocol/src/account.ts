/**
 * A player's own settings: where the server tells them it is their move while they are away
 * (an incoming webhook, as Discord and Slack give one for a channel).
 */
import { z } from 'zod';
import { lineText } from './text.ts';

const webhookUrlSchema = lineText()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, error: 'a web address starting with https://' }));

export const notificationSettingsSchema = z
  .object({
    /** Null: no webhook. */
    webhookUrl: webhookUrlSchema.nullable(),
  })
  .strict();

/** The outcome of a test message sent to the webhook. */
export const webhookTestResultSchema = z.object({
  delivered: z.boolean(),
  /** The HTTP status the webhook answered with, when it answered. */
  status: z.number().int().optional(),
  /** Why it was not delivered, in words. */
  reason: z.string().optional(),
});

/** Whether the account keeps its profile to itself (off the leaderboards, its profile answered only to it). */
export const profilePrivacySchema = z.object({ hidden: z.boolean() }).strict();
