/**
 * How moderation reaches people who are connected: a notice in the world's room (with a chat line
 * from the moderator, persisted, so players who come back later read why too), and ending the
 * sockets of a banned account or of a seat that changed hands (they reconnect with their new role).
 * The rooms span every server process (cluster/adapter.ts), so one call reaches them all.
 */
import {
  CHAT_DELETED_EVENT,
  type ChatDeleted,
  type ChatMessage,
  MODERATION_NOTICE_EVENT,
  type ModerationActionName,
  type ModerationNotice,
} from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { playerRoom, userRoom, worldRoom } from '../sockets/rooms.ts';
import type { Io } from '../sockets/typed-server.ts';

type LooseEmitter = { emit(event: string, payload: unknown): boolean };
type LooseAcker = { emitWithAck(event: string, payload: unknown): Promise<unknown[]> };

/**
 * How long a ban or a removal waits for the account's pages to say they kept the notice before it
 * ends their sockets: ending them at once could close a connection before the words got through.
 */
const TOLD_WAIT_MS = 3_000;

/** What actions call to tell people; tests may pass a recording fake. */
export interface Notifier {
  /** Returns the chat line it stored, when it stored one. */
  notice(
    worldId: string,
    actorId: string,
    action: ModerationActionName,
    text: string,
    reason: string,
    extra?: Pick<ModerationNotice, 'turn' | 'worldName'>,
  ): Promise<ChatMessage | undefined>;
  /**
   * Tells one account, on every socket it has open, what a moderator did to it and why. Settles once
   * every page answered that it kept the words (or after TOLD_WAIT_MS): end its sockets (a ban, a
   * removal) only then, so the words arrive first.
   */
  personal(userId: string, notice: Omit<ModerationNotice, 'at' | 'personal'>): Promise<void>;
  chatDeleted(worldId: string, messageId: string): void;
  endUserSockets(userId: string): Promise<void>;
  endSeatSockets(worldId: string, playerId: string): void;
}

export function socketNotifier(db: Database, io: Io): Notifier {
  const room = (r: string) => io.to(r) as unknown as LooseEmitter;
  return {
    async notice(worldId, actorId, action, text, reason, extra = {}) {
      const at = new Date();
      const notice: ModerationNotice = { worldId, action, reason, at: at.toISOString(), ...extra };
      room(worldRoom(worldId)).emit(MODERATION_NOTICE_EVENT, notice);
      const row = await db.prisma.chatMessage.create({
        data: {
          worldId,
          fromUserId: actorId,
          fromPlayerId: null,
          toPlayerId: null,
          body: `[moderator] ${text} Reason: ${reason}`,
          system: true,
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
        system: true,
      };
      room(worldRoom(worldId)).emit('chat/message', message);
      return message;
    },
    async personal(userId, notice) {
      const told: ModerationNotice = { ...notice, personal: true, at: new Date().toISOString() };
      const pages = io.to(userRoom(userId)).timeout(TOLD_WAIT_MS) as unknown as LooseAcker;
      // A page that does not answer in time (a dead connection, an old client) is not waited for.
      await pages.emitWithAck(MODERATION_NOTICE_EVENT, told).catch(() => {});
    },
    chatDeleted(worldId, messageId) {
      const msg: ChatDeleted = { worldId, id: messageId };
      room(worldRoom(worldId)).emit(CHAT_DELETED_EVENT, msg);
    },
    async endUserSockets(userId) {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    endSeatSockets(worldId, playerId) {
      io.in(playerRoom(worldId, playerId)).disconnectSockets(true);
    },
  };
}
