/** A past turn replayed on the map, for players and spectators (worlds/replay.ts). */
import { HTTP_ROUTES, type TurnReplay } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import { readReplayInput } from '../worlds/replay.ts';
import { replayOnThread } from '../worlds/replay-pool.ts';
import { HttpError } from './errors.ts';
import { currentUser } from './guard.ts';

const params = z.object({ id: z.uuid(), turn: z.coerce.number().int().min(1).max(1_000_000) });

export function registerReplay(app: FastifyInstance, db: Database, limits: Limits): void {
  // One bucket per client address and one per account (keys kept apart by their prefix).
  const replays = Limit.shared(
    db,
    windowOf('replay', limits.replays.burst, limits.replays.perMinute / 60),
    (msg, data) => app.log.warn(data, msg),
  );
  app.get(HTTP_ROUTES.replayTurn.path, async (request, reply): Promise<TurnReplay> => {
    await guard(reply, [replays, `addr:${request.ip}`]);
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world or turn.');
    const user = await currentUser(db, request);
    if (user) await guard(reply, [replays, `account:${user.id}`]);
    if (!(await visibleWorld(db, p.data.id, user)))
      throw new HttpError(404, 'world/not_found', 'That world has not played that turn.');
    const seats = user
      ? await db.prisma.worldSeat.findMany({
          where: { worldId: p.data.id, userId: user.id },
          select: { playerId: true, joinedAt: true, leftAt: true },
        })
      : [];
    // Played on a replay thread, never on this one (worlds/replay-pool.ts).
    const r = await replayOnThread(() => readReplayInput(db, p.data.id, p.data.turn, seats));
    if (!r) throw new HttpError(404, 'world/not_found', 'That world has not played that turn.');
    return r as TurnReplay;
  });
}
