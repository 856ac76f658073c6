/**
 * Chat blocks (docs/notes-and-blocks.md): the accounts whose chat the signed-in account mutes for
 * itself. Kept on the server, so the mute holds on every device; the delivery of chat lines and the
 * chat history read them (sockets/chat.ts, sockets/subscription-reads.ts). Only the blocker's own
 * list is ever answered; the blocked account is not told.
 */
import { type BlockList, HTTP_ROUTES, MAX_BLOCKS } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { guard } from '../rate-limit/http.ts';
import type { Limit } from '../rate-limit/limit.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

async function blockList(db: Database, userId: string): Promise<BlockList> {
  const rows = await db.prisma.chatBlock.findMany({
    where: { userId },
    include: { blocked: { select: { username: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return {
    blocked: rows.map((r) => ({
      userId: r.blockedUserId,
      username: r.blocked.username,
      since: r.createdAt.toISOString(),
    })),
  };
}

export function registerChatBlocks(app: FastifyInstance, db: Database, writes: Limit): void {
  app.get(HTTP_ROUTES.getBlocks.path, async (request): Promise<BlockList> => {
    const user = await requireUser(db, request);
    return blockList(db, user.id);
  });

  app.post(HTTP_ROUTES.setBlock.path, async (request, reply): Promise<BlockList> => {
    const user = await requireUser(db, request);
    await guard(reply, [writes, `account:${user.id}`]);
    const body = parseBody(HTTP_ROUTES.setBlock.body, request.body);
    const target = await db.prisma.user.findUnique({
      where: { usernameKey: body.username.toLowerCase() },
      select: { id: true },
    });
    if (!target) throw new HttpError(404, 'block/not_found', 'No account by that name.');
    if (target.id === user.id) throw new HttpError(409, 'block/self', 'An account cannot block itself.');
    const key = { userId: user.id, blockedUserId: target.id };
    if (!body.blocked) await db.prisma.chatBlock.deleteMany({ where: key });
    else {
      const count = await db.prisma.chatBlock.count({ where: { userId: user.id } });
      const already = await db.prisma.chatBlock.findUnique({ where: { userId_blockedUserId: key } });
      if (!already && count >= MAX_BLOCKS)
        throw new HttpError(409, 'block/too_many', `At most ${MAX_BLOCKS} accounts.`, { limit: MAX_BLOCKS });
      await db.prisma.chatBlock.upsert({ where: { userId_blockedUserId: key }, create: key, update: {} });
    }
    return blockList(db, user.id);
  });
}
