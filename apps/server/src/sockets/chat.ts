/**
 * World chat on the sockets: a stored message as the client receives it, and its delivery to its
 * readers (the world's room, or the two seats of a private line) on every process.
 */
import type { ChatMessage } from '@bke/protocol';
import { playerRoom, userRoom, worldRoom } from './rooms.ts';
import type { Io } from './typed-server.ts';

/**
 * Sends a stored chat message to its readers on every process: the world, or the two players of a
 * private one — less the sockets of the accounts that block its sender (`blockers`, read from
 * chat_blocks when the line was stored), so a muted line never reaches the page of whoever muted it.
 * `io.local` sends to this process's sockets only (a line caught up after the adapter missed it).
 */
export function deliverChat(
  io: Io | Io['local'],
  message: ChatMessage,
  blockers: readonly string[] = [],
): void {
  const { worldId, to } = message;
  const from = message.from.playerId;
  const rooms =
    to === null
      ? worldRoom(worldId)
      : [playerRoom(worldId, to), ...(from ? [playerRoom(worldId, from)] : [])];
  io.to(rooms).except(blockers.map(userRoom)).emit('chat/message', message);
}

export function toChat(row: {
  id: bigint;
  worldId: string;
  fromUserId: string;
  fromPlayerId: string | null;
  toPlayerId: string | null;
  body: string;
  system?: boolean;
  createdAt: Date;
  fromUser: { username: string };
}): ChatMessage {
  return {
    ...(row.system ? { system: true } : {}),
    id: row.id.toString(),
    worldId: row.worldId,
    from: { userId: row.fromUserId, username: row.fromUser.username, playerId: row.fromPlayerId },
    to: row.toPlayerId,
    body: row.body,
    at: row.createdAt.toISOString(),
  };
}
