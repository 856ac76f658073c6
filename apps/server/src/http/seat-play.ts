/**
 * A seat played over HTTP (docs/bot-interface.md): the worlds where the caller holds a seat, that
 * seat's view, legal orders and status, and its orders. Made for programs holding a bot token, open
 * to any signed-in account. The view and legal orders are the engine's for that seat alone — the
 * same a browser gets on subscribing — and an order takes the socket's path through the hub: its
 * seat is the caller's own, it is checked with the caller's session as it is stored, and answered
 * after the commit. Reads and orders count against one limit per account with the numbers of the
 * socket events, so a program goes no faster than a person's page may.
 */
import type { PlayerId } from '@bke/engine';
import {
  HTTP_ROUTES,
  type SeatedWorldsResponse,
  type SeatOrderResponse,
  type SeatViewResponse,
} from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { WorldStatus } from '../sockets/world-status.ts';
import { visibleWorld } from '../worlds/access.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

const params = z.object({ id: z.uuid() });
/** The most seats one answer of GET /api/seats lists (each is a world loaded to read its head). */
const MAX_SEATS_LISTED = 50;

/** The HTTP status of each refusal an order can meet in the hub; the engine's rule codes are 422. */
const ORDER_REFUSALS: Record<string, number> = {
  'world/not_found': 404,
  'world/paused': 409,
  'world/closed': 409,
  'sync/stale': 409,
  'auth/revoked': 409,
  'world/not_seated': 409,
};

export function registerSeatPlay(app: FastifyInstance, db: Database, hub: WorldHub, limits: Limits): void {
  const perAccount = Limit.shared(
    db,
    windowOf('seat-play', limits.socketEvents.burst, limits.socketEvents.perSecond),
    (msg, data) => app.log.warn(data, msg),
  );
  const status = new WorldStatus(hub.seating);

  /** The caller, counted against its limit, and its seat in the world of the URL. */
  const seatOf = async (request: Parameters<typeof requireUser>[1], reply: Parameters<typeof guard>[0]) => {
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const user = await requireUser(db, request);
    await guard(reply, [perAccount, `account:${user.id}`]);
    if (!(await visibleWorld(db, p.data.id, user)))
      throw new HttpError(404, 'world/not_found', 'No such world.');
    const seat = await hub.activeSeat(p.data.id, user.id);
    if (!seat) throw new HttpError(409, 'world/not_seated', 'You hold no seat in this world.');
    return { user, worldId: p.data.id, playerId: seat.playerId as PlayerId };
  };

  app.get(HTTP_ROUTES.seatedWorlds.path, async (request, reply): Promise<SeatedWorldsResponse> => {
    const user = await requireUser(db, request);
    await guard(reply, [perAccount, `account:${user.id}`]);
    const seats = await db.prisma.worldSeat.findMany({
      where: { userId: user.id, leftAt: null, world: { status: { not: 'closed' } } },
      include: { world: { select: { name: true } } },
      orderBy: { joinedAt: 'asc' },
      take: MAX_SEATS_LISTED,
    });
    const worlds: SeatedWorldsResponse['worlds'] = [];
    for (const s of seats) {
      const rt = await hub.get(s.worldId);
      if (!rt) continue;
      worlds.push({
        worldId: s.worldId,
        name: s.world.name,
        status: rt.settings.status,
        playerId: s.playerId,
        version: rt.version,
        yourMove: rt.waitingFor().includes(s.playerId as PlayerId),
      });
    }
    return { worlds };
  });

  app.get(HTTP_ROUTES.seatView.path, async (request, reply): Promise<SeatViewResponse> => {
    const { worldId, playerId } = await seatOf(request, reply);
    const rt = await hub.get(worldId);
    if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
    // Read in the world's queue, caught up with the other processes: view, legal orders and
    // status are of one version.
    return rt.run(async () => {
      await rt.catchUp();
      const ready = await hub.ready(rt, rt.head.stepKey);
      return {
        worldId,
        playerId,
        version: rt.version,
        view: hub.engine.view(rt.state, playerId),
        legal: hub.engine.legalOrders(rt.state, playerId),
        status: status.now(rt, () => ready),
      };
    });
  });

  app.post(HTTP_ROUTES.seatOrder.path, async (request, reply): Promise<SeatOrderResponse> => {
    const { user, worldId, playerId } = await seatOf(request, reply);
    const body = parseBody(HTTP_ROUTES.seatOrder.body, request.body);
    const r = await hub.order(worldId, playerId, user.id, body.version, body.order, user.sessionId);
    if (r.ok) return { ok: true, version: r.version, deferred: r.deferred };
    const { code, ...rest } = r.error;
    throw new HttpError(ORDER_REFUSALS[code] ?? 422, code, 'The order was refused.', rest);
  });
}
