/**
 * A player's public profile: the worlds they sit in and the cycles they played (every cycle's VP),
 * their ratings and the final tables they finished in, of the worlds the caller may see. An account
 * that hides its profile has it answered to itself alone.
 */
import { BOT_LEVELS, HTTP_ROUTES, type ProfileResponse } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { TableEntry } from '../ratings/ranked-table.ts';
import { displayRating, shownRating } from '../ratings/scale.ts';
import { visibleTo } from '../worlds/access.ts';
import { HttpError } from './errors.ts';
import { currentUser } from './guard.ts';

const params = z.object({ username: z.string().min(1).max(40) });

export function registerProfile(app: FastifyInstance, db: Database): void {
  app.get(HTTP_ROUTES.profile.path, async (request): Promise<ProfileResponse> => {
    const p = params.safeParse(request.params);
    const user = p.success
      ? await db.prisma.user.findUnique({
          where: { usernameKey: p.data.username.toLowerCase() },
          select: {
            id: true,
            username: true,
            createdAt: true,
            profileHidden: true,
            botOwner: { select: { username: true } },
          },
        })
      : null;
    if (!user) throw new HttpError(404, 'http/not_found', 'No such player.');
    // Only the worlds the caller may see (worlds/access.ts): a world not open to them is not read.
    const viewer = await currentUser(db, request);
    if (user.profileHidden && viewer?.id !== user.id)
      throw new HttpError(403, 'profile/hidden', 'This player keeps their profile to themselves.');
    const seats = await db.prisma.worldSeat.findMany({
      where: { userId: user.id, world: visibleTo(viewer) },
      orderBy: { joinedAt: 'desc' },
      take: 200,
      select: {
        worldId: true,
        playerId: true,
        colour: true,
        leftAt: true,
        world: { select: { name: true, status: true, rated: true } },
      },
    });
    const cycles = seats.length
      ? await db.prisma.worldCycle.findMany({
          where: { OR: seats.map((s) => ({ worldId: s.worldId, playerId: s.playerId })) },
        })
      : [];
    const nameOf = new Map(seats.map((s) => [s.worldId, s.world.name]));
    const ratings = await db.prisma.playerRating.findMany({ where: { userId: user.id } });
    const history = await db.prisma.ratingChange.findMany({
      // The rating is one number; the results behind it are listed only for worlds the caller may see.
      where: { userId: user.id, pool: 'all', result: { world: visibleTo(viewer) } },
      orderBy: { createdAt: 'asc' },
      take: 500,
      include: { result: { select: { world: { select: { name: true } } } } },
    });
    const finals = seats.length
      ? await db.prisma.ratedResult.findMany({
          where: { worldId: { in: seats.map((s) => s.worldId) }, resultKey: 'final' },
          orderBy: { createdAt: 'desc' },
        })
      : [];
    const seatOf = new Map(seats.map((s) => [s.worldId, s]));
    const results = finals.flatMap((f) => {
      const seat = seatOf.get(f.worldId);
      const entry = (f.table as unknown as TableEntry[]).find((e) => e.playerId === seat?.playerId);
      if (!seat || !entry) return [];
      return [
        {
          worldId: f.worldId,
          worldName: seat.world.name,
          at: f.createdAt.toISOString(),
          rank: entry.rank,
          of: (f.table as unknown as TableEntry[]).length,
          victory: f.victory === 'advanced' ? ('advanced' as const) : ('basic' as const),
          rated: seat.world.rated,
        },
      ];
    });
    const bots = seats.length
      ? await db.prisma.worldSeat.findMany({
          where: { worldId: { in: seats.map((s) => s.worldId) }, bot: { not: null } },
          distinct: ['bot'],
          select: { bot: true },
        })
      : [];
    const botsFaced = BOT_LEVELS.filter((level) => bots.some((b) => b.bot === level));
    return {
      username: user.username,
      ...(user.botOwner ? { programOwner: user.botOwner.username } : {}),
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
      ratings: Object.fromEntries(ratings.map((r) => [r.pool, shownRating(r)])),
      ratingHistory: history.map((h) => ({
        at: h.createdAt.toISOString(),
        worldId: h.worldId,
        worldName: h.result.world.name,
        rank: h.rank,
        before: displayRating(h.muBefore),
        after: displayRating(h.muAfter),
      })),
      results,
      botsFaced,
    };
  });
}
