/**
 * How moderation reaches people who are connected: a notice in the world's room (with a chat line
 * from the moderator, persisted, so players who come back later read why too), and ending the
 * sockets of a banned account or of a seat that changed hands (they reconnect with their new role).
 */
import {
  CHAT_DELETED_EVENT,
  type ChatDeleted,
  type ChatMessage,
  MODERATION_NOTICE_EVENT,
  type ModerationActionName,
  type ModerationNotice,
} from '@bke/protocol';
import type { Bus, BusMessage } from '../cluster/bus.ts';
import type { Database } from '../db/database.ts';
import type { Io } from '../sockets/io.ts';

/** Room names as sockets/io.ts builds them. */
export const worldRoom = (id: string) => `w:${id}`;
export const playerRoom = (id: string, player: string) => `w:${id}:${player}`;

type LooseEmitter = { emit(event: string, payload: unknown): boolean };

/** What actions call to tell people; tests may pass a recording fake. */
export interface Notifier {
  /** Returns the chat line it stored, when it stored one. */
  notice(
    worldId: string,
    actorId: string,
    action: ModerationActionName,
    text: string,
    reason: string,
  ): Promise<ChatMessage | undefined>;
  chatDeleted(worldId: string, messageId: string): void;
  endUserSockets(userId: string): Promise<void>;
  endSeatSockets(worldId: string, playerId: string): void;
}

export function socketNotifier(db: Database, io: Io): Notifier {
  const room = (r: string) => io.to(r) as unknown as LooseEmitter;
  return {
    async notice(worldId, actorId, action, text, reason) {
      const at = new Date();
      const notice: ModerationNotice = { worldId, action, reason, at: at.toISOString() };
      room(worldRoom(worldId)).emit(MODERATION_NOTICE_EVENT, notice);
      const row = await db.prisma.chatMessage.create({
        data: {
          worldId,
          fromUserId: actorId,
          fromPlayerId: null,
          toPlayerId: null,
          body: `[moderator] ${text} Reason: ${reason}`,
        },
        include: { fromUser: { select: { username: true } } },
      });
      const message: ChatMessage = {
        id: row.id.toString(),
        worldId,
        from: { userId: row.fromUserId, username: row.fromUser.username, playerId: null },
        to: null,
        body: row.body,
        at: row.createdAt.toISOString(),
      };
      room(worldRoom(worldId)).emit('chat/message', message);
      return message;
    },
    chatDeleted(worldId, messageId) {
      const msg: ChatDeleted = { worldId, id: messageId };
      room(worldRoom(worldId)).emit(CHAT_DELETED_EVENT, msg);
    },
    async endUserSockets(userId) {
      for (const s of await io.fetchSockets()) {
        const data = s.data as { user?: { id: string } | null } | undefined;
        if (data?.user?.id === userId) s.disconnect(true);
      }
    },
    endSeatSockets(worldId, playerId) {
      io.in(playerRoom(worldId, playerId)).disconnectSockets(true);
    },
  };
}

/**
 * A notifier that also tells the other server processes (cluster/bus.ts), whose sockets may be
 * the ones concerned; they act on their own sockets only (`onBusMessage`).
 */
export function clusteredNotifier(local: Notifier, bus: Bus): Notifier {
  return {
    async notice(worldId, actorId, action, text, reason) {
      const message = await local.notice(worldId, actorId, action, text, reason);
      bus.publish({ k: 'notice', notice: { worldId, action, reason, at: new Date().toISOString() } });
      if (message) bus.publish({ k: 'chat', w: worldId, id: message.id });
      return message;
    },
    chatDeleted(worldId, messageId) {
      local.chatDeleted(worldId, messageId);
      bus.publish({ k: 'chatDeleted', w: worldId, id: messageId });
    },
    async endUserSockets(userId) {
      await local.endUserSockets(userId);
      bus.publish({ k: 'endUser', u: userId });
    },
    endSeatSockets(worldId, playerId) {
      local.endSeatSockets(worldId, playerId);
      bus.publish({ k: 'endSeat', w: worldId, p: playerId });
    },
  };
}

/** What this process does with a moderation message from another process: its own sockets only. */
export function moderationFromBus(io: Io, local: Notifier, m: BusMessage): void {
  if (m.k === 'notice')
    (io.to(worldRoom(m.notice.worldId)) as unknown as LooseEmitter).emit(MODERATION_NOTICE_EVENT, m.notice);
  else if (m.k === 'chatDeleted') local.chatDeleted(m.w, m.id);
  else if (m.k === 'endUser') void local.endUserSockets(m.u);
  else if (m.k === 'endSeat') local.endSeatSockets(m.w, m.p);
}
