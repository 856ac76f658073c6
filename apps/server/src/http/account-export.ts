/**
 * The account's data export: what the server keeps that this person wrote or chose, as one JSON
 * document they can download from the account page — their settings, the worlds they sat in and
 * their private notes and the accounts whose chat they mute (the one place notes leave the notes routes; docs/notes-and-blocks.md).
 * What belongs to a world rather than to the person (its orders, its chat) stays in the world's
 * record file, which the world's page offers.
 */
import { type AccountExport, HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { requireUser } from './guard.ts';

export function registerAccountExport(app: FastifyInstance, db: Database): void {
  app.get(HTTP_ROUTES.accountExport.path, async (request, reply): Promise<AccountExport> => {
    const user = await requireUser(db, request);
    const [account, seats, notes, blocks] = await Promise.all([
      db.prisma.user.findUniqueOrThrow({ where: { id: user.id } }),
      db.prisma.worldSeat.findMany({
        where: { userId: user.id },
        include: { world: { select: { name: true } } },
        orderBy: { joinedAt: 'asc' },
      }),
      db.prisma.worldNote.findMany({
        where: { userId: user.id },
        include: { world: { select: { name: true } } },
        orderBy: { updatedAt: 'asc' },
      }),
      db.prisma.chatBlock.findMany({
        where: { userId: user.id },
        include: { blocked: { select: { username: true } } },
        orderBy: { createdAt: 'asc' },
      }),
    ]);
    void reply.header('Content-Disposition', `attachment; filename="bke-${account.username}.json"`);
    return {
      exportedAt: new Date().toISOString(),
      account: {
        username: account.username,
        email: account.email,
        createdAt: account.createdAt.toISOString(),
        profileHidden: account.profileHidden,
        notifyMode: account.notifyMode,
        timeZone: account.timeZone,
        webhookUrl: account.webhookUrl,
      },
      worlds: seats.map((s) => ({
        worldId: s.worldId,
        name: s.world.name,
        playerId: s.playerId,
        joinedAt: s.joinedAt.toISOString(),
      })),
      notes: notes.map((n) => ({
        worldId: n.worldId,
        worldName: n.world.name,
        body: n.body,
        updatedAt: n.updatedAt.toISOString(),
      })),
      blocked: blocks.map((b) => ({ username: b.blocked.username, since: b.createdAt.toISOString() })),
    };
  });
}
