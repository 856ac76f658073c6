/**
 * The History tab's earlier pages (worlds/history-pages.ts), for a seat (its own view) or a
 * spectator. Read like a replay of a past turn: counted per client address and per account.
 */
import type { PlayerId } from '@bke/engine';
import { type HistoryPage, HTTP_ROUTES, historyPageQuerySchema } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import { historyBefore } from '../worlds/history-pages.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { seenSeat } from '../worlds/since-last.ts';
import { HttpError } from './errors.ts';
import { currentUser, parseQuery } from './guard.ts';

const params = z.object({ id: z.uuid() });

export function registerHistory(app: FastifyInstance, db: Database, hub: WorldHub, limits: Limits): void {
  const pages = Limit.shared(
    db,
    windowOf('history', limits.replays.burst, limits.replays.perMinute / 60),
    (msg, data) => app.log.warn(data, msg),
  );
  app.get(HTTP_ROUTES.worldHistory.path, async (request, reply): Promise<HistoryPage> => {
    await guard(reply, [pages, `addr:${request.ip}`]);
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const q = parseQuery(historyPageQuerySchema, request.query);
    const user = await currentUser(db, request);
    if (user) await guard(reply, [pages, `account:${user.id}`]);
    const visible = await visibleWorld(db, p.data.id, user);
    if (!visible) throw new HttpError(404, 'world/not_found', 'No such world.');
    const seat = user ? await seenSeat(db, p.data.id, user.id) : null;
    const staff = user?.role === 'moderator' || user?.role === 'admin';
    if (!seat && !visible.spectators && !staff)
      throw new HttpError(403, 'world/no_spectators', 'This world has no spectators.');
    const rt = await hub.get(p.data.id);
    if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
    const head = await rt.run(async () => {
      await rt.catchUp();
      return { version: rt.version, turn: rt.state.turn };
    });
    const viewer = (seat?.playerId ?? null) as PlayerId | null;
    return historyBefore(db, p.data.id, head, q.before, (events) => hub.engine.eventsFor(events, viewer));
  });
}
