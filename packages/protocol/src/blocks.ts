/**
 * Chat blocks: an account mutes another's chat for itself. The blocked account's lines are not sent
 * to the blocker, live or in a world's chat history; nobody else's chat changes, and the blocked
 * account is not told.
 */
import { z } from 'zod';
import { usernameSchema } from './auth.ts';

/** The most accounts one account may block (a list meant for a few people, not a filter of the site). */
export const MAX_BLOCKS = 200;

export const blockChangeSchema = z
  .object({
    username: usernameSchema,
    /** True: mute their chat; false: hear it again. */
    blocked: z.boolean(),
  })
  .strict();

export const blockListSchema = z.object({
  blocked: z.array(z.object({ userId: z.string(), username: z.string(), since: z.iso.datetime() })),
});
export type BlockList = z.infer<typeof blockListSchema>;
