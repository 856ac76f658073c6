/**
 * A world's game record to download (docs/game-records.md): the complete record of a finished
 * world for anyone; of a world still in play, the record the caller may see — its seats' own
 * orders, the rest as the events it was sent — or a spectator's without an account. Counted
 * like the replay of a past turn (per client address and per account), since building it reads
 * the whole log.
 */
import { type GameRecord, HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import { completeRecord, viewerRecord, type WorldAt } from '../worlds/game-record.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { HttpError } from './errors.ts';
import { currentUser } from './guard.ts';

const params = z.object({ id: z.uuid() });

export function registerGameRecord(app: FastifyInstance, db: Database, hub: WorldHub, limits: Limits): void {
  const records = Limit.shared(
    db,
    windowOf('record', limits.replays.burst, limits.replays.perMinute / 60),
    (msg, data) => app.log.warn(data, msg),
  );
  app.get(HTTP_ROUTES.worldRecord.path, async (request, reply): Promise<GameRecord> => {
    await guard(reply, [records, `addr:${request.ip}`]);
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const user = await currentUser(db, request);
    if (user) await guard(reply, [records, `account:${user.id}`]);
    if (!(await visibleWorld(db, p.data.id, user)))
      throw new HttpError(404, 'world/not_found', 'No such world.');
    const rt = await hub.get(p.data.id);
    if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
    // The state and the version it is after, taken together on the world's queue.
    const at = await rt.run(async (): Promise<WorldAt & { closed: boolean }> => {
      await rt.catchUp();
      return { state: rt.state, version: rt.version, closed: rt.settings.status === 'closed' };
    });
    const seats = user
      ? await db.prisma.worldSeat.findMany({
          where: { worldId: p.data.id, userId: user.id },
          select: { playerId: true, joinedAt: true, leftAt: true },
          orderBy: { joinedAt: 'asc' },
        })
      : [];
    const record = at.closed
      ? await completeRecord(db, hub.engine, p.data.id, at)
      : await viewerRecord(db, hub.engine, p.data.id, at, seats);
    if (!record) throw new HttpError(404, 'world/not_found', 'No such world.');
    const name = record.world?.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40) || 'world';
    reply.header('content-disposition', `attachment; filename="bke-${name}-${record.kind}.json"`);
    return record;
  });
}
