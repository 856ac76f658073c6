/**
 * The ratings' pages (docs/ratings.md): the leaderboard of one pool, and a world's final table with
 * what it did to each person's rating.
 */
import {
  type FinalTableResponse,
  HTTP_ROUTES,
  type LeaderboardResponse,
  leaderboardQuerySchema,
} from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { TableEntry } from '../ratings/ranked-table.ts';
import {
  displayRating,
  isProvisional,
  PROVISIONAL_RESULTS,
  PROVISIONAL_SIGMA,
  shownRating,
} from '../ratings/scale.ts';
import { visibleTo } from '../worlds/access.ts';
import { HttpError } from './errors.ts';
import { currentUser, parseQuery } from './guard.ts';

/** Rows on a leaderboard. */
const LEADERBOARD_ROWS = 100;

const worldParams = z.object({ worldId: z.uuid() });

export function registerRatings(app: FastifyInstance, db: Database): void {
  app.get(HTTP_ROUTES.leaderboard.path, async (request): Promise<LeaderboardResponse> => {
    const { pool } = parseQuery(leaderboardQuerySchema, request.query);
    // Listed: accounts not banned now (a ban that has run out no longer counts) whose profile is
    // not hidden. Settled: past the provisional bounds (ratings/scale.ts), decided in the query so
    // the page is the best hundred settled ratings however many provisional ones rank above them.
    const listed = {
      pool,
      user: {
        profileHidden: false,
        OR: [{ bannedUntil: null }, { bannedUntil: { lte: new Date() } }],
      },
    };
    const settled = { results: { gte: PROVISIONAL_RESULTS }, sigma: { lte: PROVISIONAL_SIGMA } };
    const [rows, provisional] = await Promise.all([
      db.prisma.playerRating.findMany({
        where: { ...listed, ...settled },
        orderBy: [{ mu: 'desc' }, { results: 'desc' }, { userId: 'asc' }],
        take: LEADERBOARD_ROWS,
        select: {
          mu: true,
          sigma: true,
          results: true,
          user: { select: { username: true, botOwner: { select: { username: true } } } },
        },
      }),
      db.prisma.playerRating.count({ where: { ...listed, NOT: settled } }),
    ]);
    return {
      pool,
      rows: rows.map((r, i) => {
        const shown = shownRating(r);
        return {
          rank: i + 1,
          username: r.user.username,
          ...(r.user.botOwner ? { programOwner: r.user.botOwner.username } : {}),
          rating: shown.rating,
          uncertainty: shown.uncertainty,
          results: r.results,
        };
      }),
      provisional,
    };
  });

  app.get(HTTP_ROUTES.finalTable.path, async (request): Promise<FinalTableResponse> => {
    const p = worldParams.safeParse(request.params);
    // A world the caller may not see (worlds/access.ts) has, for them, no final table either.
    const viewer = await currentUser(db, request);
    const result = p.success
      ? await db.prisma.ratedResult.findFirst({
          where: { worldId: p.data.worldId, resultKey: 'final', world: visibleTo(viewer) },
          include: {
            world: { select: { rated: true } },
            changes: { where: { pool: 'all' }, include: { user: { select: { username: true } } } },
          },
        })
      : null;
    if (!result) throw new HttpError(404, 'http/not_found', 'This world has no final table.');
    const table = result.table as unknown as TableEntry[];
    const byPlayer = new Map(result.changes.map((c) => [c.playerId, c]));
    const names = new Map(
      (
        await db.prisma.user.findMany({
          where: { id: { in: table.flatMap((e) => (e.userId ? [e.userId] : [])) } },
          select: { id: true, username: true },
        })
      ).map((u) => [u.id, u.username]),
    );
    // Whether a rating was still provisional just after this result: its uncertainty then, and the
    // results the account had taken in by then (each one a rating change in the pool, written in
    // the transaction that recorded it, so later results carry later times).
    const at = result.changes[0]?.createdAt;
    const taken = at
      ? new Map(
          (
            await db.prisma.ratingChange.groupBy({
              by: ['userId'],
              where: {
                pool: 'all',
                userId: { in: result.changes.map((c) => c.userId) },
                createdAt: { lte: at },
              },
              _count: { _all: true },
            })
          ).map((g) => [g.userId, g._count._all]),
        )
      : new Map<string, number>();
    return {
      worldId: result.worldId,
      victory: result.victory === 'advanced' ? 'advanced' : 'basic',
      rated: result.world.rated,
      rows: table.map((e) => {
        const c = byPlayer.get(e.playerId);
        return {
          playerId: e.playerId,
          username: e.userId ? (names.get(e.userId) ?? null) : null,
          bot: e.userId ? null : e.bot,
          rank: e.rank,
          score: e.score,
          ratingBefore: c ? displayRating(c.muBefore) : null,
          ratingAfter: c ? displayRating(c.muAfter) : null,
          provisional: c ? isProvisional({ sigma: c.sigmaAfter, results: taken.get(c.userId) ?? 1 }) : null,
        };
      }),
    };
  });
}
