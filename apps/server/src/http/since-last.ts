/**
 * "Since you were last here" (worlds/since-last.ts): the caller's summary of a world since its seat
 * last saw it, and the mark that it has been seen. Reading it walks the log since that mark, so it
 * is counted like the replay of a past turn (per client address and per account).
 */
import { HTTP_ROUTES, type SinceLast, sinceLastSeenSchema } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { markSeen, seenSeat, sinceLast } from '../worlds/since-last.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

const params = z.object({ id: z.uuid() });

export function registerSinceLast(app: FastifyInstance, db: Database, hub: WorldHub, limits: Limits): void {
  const reads = Limit.shared(
    db,
    windowOf('since-last', limits.replays.burst, limits.replays.perMinute / 60),
    (msg, data) => app.log.warn(data, msg),
  );
  app.get(HTTP_ROUTES.sinceLast.path, async (request, reply): Promise<SinceLast> => {
    await guard(reply, [reads, `addr:${request.ip}`]);
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const user = await requireUser(db, request);
    await guard(reply, [reads, `account:${user.id}`]);
    // A world hidden from the account is no world to it (worlds/access.ts), not one it has no seat in.
    if (!(await visibleWorld(db, p.data.id, user)))
      throw new HttpError(404, 'world/not_found', 'No such world.');
    const rt = await hub.get(p.data.id);
    if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
    const seat = await seenSeat(db, p.data.id, user.id);
    if (!seat) throw new HttpError(409, 'world/not_seated', 'You hold no seat in this world.');
    // The version the world is at, taken on the world's queue: the summary runs exactly to it.
    const version = await rt.run(async () => {
      await rt.catchUp();
      return rt.version;
    });
    return sinceLast(db, hub.engine, p.data.id, version, seat);
  });
  app.post(HTTP_ROUTES.sinceLastSeen.path, async (request) => {
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const user = await requireUser(db, request);
    const body = parseBody(sinceLastSeenSchema, request.body);
    const seen = await markSeen(db, p.data.id, user.id, body.version);
    if (seen === null) throw new HttpError(409, 'world/not_seated', 'You hold no seat in this world.');
    return { seenVersion: seen };
  });
}
