/**
 * Who may join a world and who may see it: public (anyone), by invitation (a link carrying an
 * unguessable token, or an invitation by account name) or private (by name only). A world that is
 * not public is shown only to its members — its creator, the accounts invited into it and those
 * seated in it — and to moderators; to anyone else it does not exist.
 */
import { z } from 'zod';
import { usernameSchema } from './auth.ts';

export const WORLD_ACCESS = ['public', 'invitation', 'private'] as const;
export type WorldAccess = (typeof WORLD_ACCESS)[number];

/** The invitation link's token: 32 random bytes, base64url (43 characters). */
export const inviteTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** At creation: who may join, the seats held for the invited, whether others may watch, who is invited. */
export const accessSettingsSchema = z
  .object({
    who: z.enum(WORLD_ACCESS).default('public'),
    /** Seats held for the accounts invited by name (public worlds; a world that is not public holds them all). */
    reservedSeats: z.number().int().min(0).max(6).default(0),
    /** Whether accounts without a seat may watch (only members, where the world is not public). */
    spectators: z.boolean().default(true),
    /** Accounts invited by name at once. */
    invite: z.array(usernameSchema).max(20).default([]),
  })
  .strict();
export type AccessSettings = z.input<typeof accessSettingsSchema>;

/** A change of the settings, later, by the creator or a moderator; what is omitted stays. */
export const accessChangeSchema = z
  .object({
    who: z.enum(WORLD_ACCESS).optional(),
    reservedSeats: z.number().int().min(0).max(6).optional(),
    spectators: z.boolean().optional(),
  })
  .strict();

export const inviteByNameSchema = z.object({ username: usernameSchema }).strict();

/** What the creator (or a moderator) reads of the settings: never the link's token, which is not kept. */
export const accessResponseSchema = z.object({
  who: z.enum(WORLD_ACCESS),
  reservedSeats: z.number().int(),
  spectators: z.boolean(),
  /** Whether an invitation link works now (its token is shown once, when it is made). */
  link: z.boolean(),
  invited: z.array(z.object({ username: z.string(), via: z.enum(['name', 'link']) })),
});
export type AccessResponse = z.infer<typeof accessResponseSchema>;

/** A new invitation link's token: shown this once (the server keeps only its hash). */
export const inviteLinkResponseSchema = z.object({ token: inviteTokenSchema });

/** Opening an invitation link: the world it leads into. */
export const acceptInviteResponseSchema = z.object({ worldId: z.string(), name: z.string() });
