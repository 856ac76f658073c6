/**
 * A person's own notes on a world, and the account's data export that carries them. Notes are
 * private by construction: the only routes that read them answer the signed-in account's own.
 */
import { z } from 'zod';
import { freeText } from './text.ts';

/** The longest note kept for one world, in characters (a few pages of text). */
export const NOTE_MAX_CHARS = 10_000;

export const noteSchema = z
  .object({
    body: freeText().max(NOTE_MAX_CHARS, { error: `at most ${NOTE_MAX_CHARS} characters` }),
  })
  .strict();

/** The caller's note on a world: empty, with no time, until they first write one. */
export const noteResponseSchema = z.object({
  body: z.string(),
  updatedAt: z.iso.datetime().nullable(),
});
export type NoteResponse = z.infer<typeof noteResponseSchema>;

/** Everything the server keeps that the account wrote or chose, as one JSON document. */
export const accountExportSchema = z.object({
  exportedAt: z.iso.datetime(),
  account: z.object({
    username: z.string(),
    email: z.string().nullable(),
    createdAt: z.iso.datetime(),
    profileHidden: z.boolean(),
    notifyMode: z.string(),
    timeZone: z.string(),
    webhookUrl: z.string().nullable(),
  }),
  worlds: z.array(
    z.object({ worldId: z.string(), name: z.string(), playerId: z.string(), joinedAt: z.iso.datetime() }),
  ),
  notes: z.array(
    z.object({ worldId: z.string(), worldName: z.string(), body: z.string(), updatedAt: z.iso.datetime() }),
  ),
  /** The accounts whose chat this account mutes. */
  blocked: z.array(z.object({ username: z.string(), since: z.iso.datetime() })),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
