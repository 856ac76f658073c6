/**
 * Whether a player has a page open on a world, on any server process: "online" for the turn
 * notifications (a player who sees the world needs no webhook line). This process's own rooms are
 * asked first; then, when there are other processes, they are asked with `presence:ask` and answer
 * with the rooms they hold sockets in.
 *
 * Not `fetchSockets()`: it would ship every matching socket's handshake — the session cookie
 * among its headers — through the database (or Redis) to answer a yes or no.
 */

import { playerRoom } from '../sockets/rooms.ts';
import type { Io } from '../sockets/typed-server.ts';
import type { ClusterLink } from './adapter.ts';
import { presenceAnswerSchema, presenceAskSchema } from './messages.ts';

export type Presence = (worldId: string, playerId: string) => Promise<boolean>;

export function linkPresence(io: Io, link: ClusterLink): Presence {
  const local = (room: string) => (io.of('/').adapter.rooms.get(room)?.size ?? 0) > 0;
  if (link.kind === 'none') return async (worldId, playerId) => local(playerRoom(worldId, playerId));

  io.on('presence:ask', (raw: unknown, answer: unknown) => {
    const rooms = presenceAskSchema.safeParse(raw);
    if (typeof answer === 'function') answer(rooms.success ? rooms.data.filter(local) : []);
  });

  return async (worldId, playerId) => {
    const room = playerRoom(worldId, playerId);
    if (local(room)) return true;
    if ((await io.of('/').adapter.serverCount()) <= 1) return false;
    // A process that does not answer in time (the adapter waits 5 s) is counted out: a process that
    // died has no sockets left, and one that lives answers.
    const answers = await new Promise<unknown[]>((resolve) => {
      io.serverSideEmit('presence:ask', [room], (_err: Error | null, replies: unknown[]) =>
        resolve(replies ?? []),
      );
    });
    return answers.some((a) => {
      const present = presenceAnswerSchema.safeParse(a);
      return present.success && present.data.includes(room);
    });
  };
}
