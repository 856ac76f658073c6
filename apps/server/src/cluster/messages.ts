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
}

export const worldChangedSchema = z.uuid();
export const presenceAskSchema = z.array(z.string().min(1).max(120)).min(1).max(50);
export const presenceAnswerSchema = z.array(z.string().max(120)).max(50);
