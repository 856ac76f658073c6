/** A player's public profile: the worlds they sit in and the cycles they played (every cycle's VP). */
import { HTTP_ROUTES, type ProfileResponse } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { HttpError } from './errors.ts';

const params = z.object({ username: z.string().min(1).max(40) });

export function registerProfile(app: FastifyInstance, db: Database): void {
  app.get(HTTP_ROUTES.profile.path, async (request): Promise<ProfileResponse> => {
    const p = params.safeParse(request.params);
    const user = p.success
      ? await db.prisma.user.findUnique({
          where: { usernameKey: p.data.username.toLowerCase() },
          select: { id: true, username: true, createdAt: true },
        })
      : null;
    if (!user) throw new HttpError(404, 'http/not_found', 'No such player.');
    const seats = await db.prisma.worldSeat.findMany({
      where: { userId: user.id },
      orderBy: { joinedAt: 'desc' },
      take: 200,
      select: {
        worldId: true,
        playerId: true,
        colour: true,
        leftAt: true,
        world: { select: { name: true, status: true } },
      },
    });
    const cycles = seats.length
      ? await db.prisma.worldCycle.findMany({
          where: { OR: seats.map((s) => ({ worldId: s.worldId, playerId: s.playerId })) },
        })
      : [];
    const nameOf = new Map(seats.map((s) => [s.worldId, s.world.name]));
    return {
      username: user.username,
      since: user.createdAt.toISOString(),
      worlds: seats.map((s) => ({
        id: s.worldId,
        name: s.world.name,
        status: s.world.status,
        colour: s.colour,
        left: s.leftAt !== null,
      })),
      cycles: cycles
        .map((c) => ({
          worldId: c.worldId,
          worldName: nameOf.get(c.worldId) ?? '',
          number: c.number,
          position: c.position,
          startTurn: c.startTurn,
          kingdomTurn: c.kingdomTurn,
          empireTurn: c.empireTurn,
          endTurn: c.endTurn,
          endReason: c.endReason,
          vp: c.vp,
        }))
        .sort((a, b) => b.vp - a.vp || a.startTurn - b.startTurn),
    };
  });
}
