/**
 * What server processes say to each other through the adapter's `serverSideEmit`. Every message
 * names what changed, never carries it (the database is the only source of truth), and is parsed
 * with zod on arrival like any other input.
 */
import { z } from 'zod';

export interface ServerSideEvents {
  /** A world's log, head (status, deadline, step), seats or ready flags changed on the sender. */
  'world:changed': (worldId: string) => void;
  /** Which of these rooms hold a socket of the receiving process (cluster/presence.ts). */
  'presence:ask': (rooms: string[], answer: (present: string[]) => void) => void;
  /** How many sockets the receiving process holds open for this address and account (cluster/open-sockets.ts). */
  'sockets:count': (
    of: { address: string; account: string | null },
    answer: (open: { address: number; account: number }) => void,
  ) => void;
}

export const worldChangedSchema = z.uuid();
export const presenceAskSchema = z.array(z.string().min(1).max(120)).min(1).max(50);
export const presenceAnswerSchema = z.array(z.string().max(120)).max(50);
export const socketsAskSchema = z.object({
  address: z.string().min(1).max(100),
  account: z.string().min(1).max(100).nullable(),
});
export const socketsAnswerSchema = z.object({
  address: z.number().int().min(0),
  account: z.number().int().min(0),
});
