/**
 * Chat lines and their removals that this process's adapter missed while it was not listening
 * (its connection to the database lost, for a second or for an outage). Orders and other world
 * changes are caught up by the sweep (world-changes.ts); a chat line reaches other processes only
 * through the adapter, so without this one sent meanwhile on another process would reach the
 * readers here only on their next reload.
 *
 * On listening again, each world watched by a socket of this process has its lines written since
 * a little before the loss sent again to those sockets only, as they were sent at first (private
 * lines to their two seats, none to the accounts that block the sender), and the lines removed
 * meanwhile are taken away. A page drops a line it already holds (by id), so the margin costs
 * nothing but a few repeated messages.
 */
import { CHAT_DELETED_EVENT, type ChatDeleted } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { deliverChat, toChat } from '../sockets/chat.ts';
import { worldOfRoom, worldRoom } from '../sockets/rooms.ts';
import type { Io } from '../sockets/typed-server.ts';
import type { ClusterLink } from './adapter.ts';

/**
 * Read back from this long before the loss: the lines' times are set by the process that wrote
 * them, whose clock may run a little ahead of or behind this one.
 */
const CLOCK_MARGIN_MS = 30_000;
/** Never more lines than this per catch-up: an outage of hours is read on the next reload. */
const MOST_LINES = 2000;

export function linkChatCatchUp(
  io: Io,
  db: Database,
  link: ClusterLink,
  log: (msg: string, data?: object) => void,
): void {
  link.onRelisten((lostAt) => {
    catchUpChat(io, db, new Date(lostAt.getTime() - CLOCK_MARGIN_MS)).then(
      (n) => {
        if (n.lines + n.removed > 0) log('cluster: chat caught up after listening again', n);
      },
      (e) => log('cluster: could not catch up the chat after listening again', { err: String(e) }),
    );
  });
}

/** The worlds some socket of this process watches: the world rooms (rooms.ts) it holds. */
function watchedWorlds(io: Io): string[] {
  return [...io.of('/').adapter.rooms.keys()].flatMap((room) => worldOfRoom(room) ?? []);
}

async function catchUpChat(
  io: Io,
  db: Database,
  since: Date,
): Promise<{ worlds: number; lines: number; removed: number }> {
  const worlds = watchedWorlds(io);
  if (worlds.length === 0) return { worlds: 0, lines: 0, removed: 0 };
  const rows = await db.prisma.chatMessage.findMany({
    where: { worldId: { in: worlds }, deletedAt: null, createdAt: { gte: since } },
    include: { fromUser: { select: { username: true } } },
    orderBy: { id: 'asc' },
    take: MOST_LINES,
  });
  const senders = [...new Set(rows.map((r) => r.fromUserId))];
  const blocks = senders.length
    ? await db.prisma.chatBlock.findMany({
        where: { blockedUserId: { in: senders } },
        select: { userId: true, blockedUserId: true },
      })
    : [];
  for (const row of rows) {
    const blockers = blocks.filter((b) => b.blockedUserId === row.fromUserId).map((b) => b.userId);
    deliverChat(io.local, toChat(row), blockers);
  }
  const removed = await db.prisma.chatMessage.findMany({
    where: { worldId: { in: worlds }, deletedAt: { gte: since } },
    select: { id: true, worldId: true },
    take: MOST_LINES,
  });
  for (const r of removed) {
    const msg: ChatDeleted = { worldId: r.worldId, id: r.id.toString() };
    io.local.to(worldRoom(r.worldId)).emit(CHAT_DELETED_EVENT, msg);
  }
  return { worlds: worlds.length, lines: rows.length, removed: removed.length };
}
