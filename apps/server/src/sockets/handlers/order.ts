/**
 * `world/order`: a seat's order, committed before it is acknowledged (worlds/hub.ts). The session
 * and the seat are checked inside the statement that stores it; an order made against an older
 * version is refused as stale, with the patches it lacks when they are few.
 */
import type { PlayerId } from '@bke/engine';
import { orderMessageSchema } from '@bke/protocol';
import type { z } from 'zod';
import type { OrderOutcome } from '../../metrics.ts';
import { handler, refuse, type SocketContext } from '../context.ts';
import { rights } from '../rights.ts';
import type { BkeSocket } from '../typed-server.ts';
import { catchUpPatches } from '../viewer-messages.ts';

export const order = handler({
  event: 'world/order',
  schema: orderMessageSchema,
  async handle(ctx, socket, msg) {
    const received = performance.now();
    const count = (outcome: OrderOutcome) => {
      ctx.metrics.orders.inc({ outcome });
      ctx.metrics.orderAck.observe({ outcome }, (performance.now() - received) / 1000);
    };
    try {
      const r = await place(ctx, socket, msg);
      count(!r.ok ? 'refused' : r.deferred ? 'deferred' : 'accepted');
      return r;
    } catch (e) {
      count('failed');
      throw e;
    }
  },
});

async function place(ctx: SocketContext, socket: BkeSocket, msg: z.infer<typeof orderMessageSchema>) {
  const { hub } = ctx;
  const user = await ctx.admission.signedIn(socket);
  if (!user) return refuse(socket.data.pendingToken ? 'auth/unavailable' : 'auth/required');
  if (!socket.data.worlds.has(msg.worldId)) return refuse('world/not_subscribed');
  const playerId = socket.data.worlds.get(msg.worldId);
  if (!playerId) return refuse('auth/forbidden', { reason: 'spectator' });
  // The session and the seat are checked inside the statement that stores the order (the hot
  // path pays no extra round trip); when they no longer hold, `rights` says which and acts.
  const r = await hub.order(msg.worldId, playerId, user.id, msg.version, msg.order, user.sessionId);
  if (!r.ok && r.error.code === 'auth/revoked') {
    const now = await rights(ctx, socket, msg.worldId);
    return 'ok' in now ? now : refuse('sync/stale');
  }
  if (r.ok) return { ok: true as const, version: r.version, deferred: r.deferred };
  if (r.error.code !== 'sync/stale') return r;
  // The socket is in the world's room, so the patches it lacks were sent or are on their way;
  // the answer carries them again when few (the client drops those it has), never a full view.
  const rt = await hub.get(msg.worldId);
  if (!rt) return r;
  // Read in the world's queue: a moderator's transaction moves the runtime's state before it
  // commits, and the answer must only carry versions that are in the log.
  return rt.run(async () => {
    const now = rt.version;
    const gap = now - msg.version;
    const seat = playerId as PlayerId;
    const patches =
      gap > 0 && gap <= ctx.limits.staleOrderPatches
        ? await catchUpPatches(ctx.db, hub, rt, msg.version, seat)
        : undefined;
    if (!patches?.length) return refuse('sync/stale', { version: now });
    // The last carries the legal orders: the live patches they stand in for may come after this
    // answer, and the client drops those it has.
    const last = { ...patches[patches.length - 1]!, legal: ctx.legal.at(rt, rt.state, seat) };
    return refuse('sync/stale', { version: now, patches: [...patches.slice(0, -1), last] });
  });
}
