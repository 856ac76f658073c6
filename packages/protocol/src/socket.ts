/** Socket.IO events. Every inbound payload is parsed with these schemas on the server. */
import { z } from 'zod';

export const helloSchema = z.object({
  serverVersion: z.string(),
  serverTime: z.string(),
});
export type Hello = z.infer<typeof helloSchema>;

export interface ServerToClientEvents {
  hello: (hello: Hello) => void;
}

// biome-ignore lint/complexity/noBannedTypes: no client events yet; the game server adds them.
export type ClientToServerEvents = {};
