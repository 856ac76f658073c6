/**
 * Socket.IO on the HTTP server Fastify owns: the live side of a world. Every inbound message is
 * rate-limited, size-checked and parsed with its zod schema from @bke/protocol before anything
 * else; every answer is an acknowledgement `{ ok, … }` or `{ ok: false, error: { code } }`.
 *
 * With several server processes each one tells its own sockets about a world (`io.local`): every
 * process holds its own copy, told of the others' changes (cluster/world-changes.ts), and knows
 * which private views and legal orders its sockets hold. Chat, moderation notices and ended
 * sockets go through the cluster adapter's rooms to every process at once.
 */

import type { GameView } from '@bke/engine';
import {
  type Ack,
  type ChatMessage,
  type ClientToServerEvents,
  chatSendSchema,
  MAX_PATCH_GAP,
  MAX_SOCKET_MESSAGE_BYTES,
  orderMessageSchema,
  type PatchMessage,
  type PlanCostResult,
  planCostRequestSchema,
  RECENT_EVENTS,
  SESSION_COOKIE,
  type ServerToClientEvents,
  type SubscribeResult,
  subscribeSchema,
  unsubscribeSchema,
  type WireError,
  type WorldStatusMessage,
} from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import { RateLimiter } from '../auth/rate-limit.ts';
import { parseCookies, type SessionUser, userForToken } from '../auth/sessions.ts';
import type { ServerSideEvents } from '../cluster/messages.ts';
import type { Database } from '../db/database.ts';
import { SERVER_VERSION } from '../http/health.ts';
import { type ProxyTrust, publicSite, sameOrigin } from '../http/origin.ts';
import { Metrics, type OrderOutcome } from '../metrics.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { planCost } from '../worlds/plan-cost.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { readOrders, recentEvents } from '../worlds/store.ts';
import {
  canonical,
  type PrivateSlice,
  privatePartStale,
  privateSlice,
  touchesSlice,
} from './private-view.ts';
import { playerRoom, userRoom, worldRoom } from './rooms.ts';

export type Io = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

export interface SocketData {
  user: SessionUser | null;
  /** worldId → the player id this socket plays as there, or null when watching. */
  worlds: Map<string, string | null>;
}
type BkeSocket = Socket<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

export interface SocketLimits {
  burst: number;
  perSecond: number;
}

const err = (code: string, params: Record<string, unknown> = {}) => ({
  ok: false as const,
  error: { code, ...params } as WireError,
});

export interface SocketOptions {
  limits?: SocketLimits;
  /** Which proxies to believe about the host the browser used (TRUST_PROXY, http/origin.ts). */
  trust?: ProxyTrust;
  metrics?: Metrics;
}

export function attachSockets(
  app: FastifyInstance,
  db?: Database,
  hub?: WorldHub,
  options: SocketOptions = {},
): Io {
  const trust = options.trust ?? (() => false);
  const io: Io = new Server(app.server, {
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    transports: ['websocket', 'polling'],
    allowRequest: (req, cb) => cb(null, sameOrigin(req.headers.origin, publicSite(req, trust))),
  });
  if (db && hub)
    wireWorlds(
      app,
      io,
      db,
      hub,
      options.limits ?? { burst: 40, perSecond: 20 },
      options.metrics ?? new Metrics(),
    );
  else
    io.on('connection', (socket) => {
      socket.emit('hello', { serverVersion: SERVER_VERSION, serverTime: new Date().toISOString() });
    });
  return io;
}

function wireWorlds(
  app: FastifyInstance,
  io: Io,
  db: Database,
  hub: WorldHub,
  limits: SocketLimits,
  metrics: Metrics,
) {
  const limiter = new RateLimiter(limits.burst, limits.perSecond);

  // Legal orders are computed after the acknowledgement and the patches have left, once per world
  // per turn of the event loop however many orders were committed meanwhile.
  const legalDue = new Map<string, WorldRuntime>();
  const flushLegal = () => {
    const due = [...legalDue.values()];
    legalDue.clear();
    for (const rt of due) sendLegal(rt);
  };
  hub.events = {
    patches(rt, patches) {
      // A player whose private part these orders changed gets its fresh view, carrying the
      // patches' events, instead of the patches: applying the public patches first would show
      // its screen a mix of old private and new public parts (a lease offered and running).
      const fresh = privateViews(rt, patches);
      const room = io.local.to(worldRoom(rt.id));
      const others = fresh.size > 0 ? room.except([...fresh.keys()]) : room;
      for (const p of patches) others.emit('world/patch', p);
      const replaces = patches.map((p) => ({ to: p.to, events: p.events }));
      for (const [player, view] of fresh)
        io.local.to(player).emit('world/view', { worldId: rt.id, version: rt.version, view, replaces });
      if (legalDue.size === 0) setImmediate(flushLegal);
      legalDue.set(rt.id, rt);
    },
    status(rt) {
      void statusOf(rt).then((s) => io.local.to(worldRoom(rt.id)).emit('world/status', s));
    },
  };

  async function statusOf(rt: WorldRuntime): Promise<WorldStatusMessage> {
    return {
      worldId: rt.id,
      version: rt.version,
      status: rt.settings.status,
      stepKey: rt.head.stepKey,
      deadlineAt: rt.head.deadlineAt?.toISOString() ?? null,
      waitingFor: rt.waitingFor(),
      ready: await hub.ready(rt),
      pauseReason: rt.settings.status === 'paused' ? rt.settings.pauseReason : null,
    };
  }

  /**
   * Legal orders go only to the player's own sockets (STYLE habit 14), and only when they changed
   * since the last ones sent there (a subscribe always carries the current ones).
   */
  const lastLegal = new Map<string, string>();
  function sendLegal(rt: WorldRuntime) {
    for (const p of rt.state.players) {
      const room = playerRoom(rt.id, p.id);
      if (!io.sockets.adapter.rooms.get(room)?.size) {
        lastLegal.delete(room);
        continue;
      }
      const orders = hub.engine.legalOrders(rt.state, p.id) as { type: string }[];
      const key = JSON.stringify(orders);
      if (lastLegal.get(room) === key) continue;
      lastLegal.set(room, key);
      io.local.to(room).emit('world/legal', { worldId: rt.id, version: rt.version, orders });
    }
  }

  /**
   * The private slice of the realm each player's screens hold (player room → slice), as far as the
   * server knows: set at subscribe, moved on by the public patches. A player whose own slice differs
   * from that after a commit (its plan recorded, a bid, a lease offer) gets a fresh view (private-view.ts).
   */
  const heldSlice = new Map<string, PrivateSlice>();
  const ownSlice = (rt: WorldRuntime, player: string) =>
    privateSlice((hub.engine.view(rt.state, player as never) as { realm?: unknown }).realm, player);
  /** The state's own objects behind each room's slice at the last check (the state is immutable). */
  const sliceRefs = new Map<string, { player: unknown; leases: unknown }>();
  /** Player room → fresh view, for the players whose private part `patches` leave stale. */
  function privateViews(rt: WorldRuntime, patches: readonly PatchMessage[]): Map<string, GameView> {
    const out = new Map<string, GameView>();
    const realm = (rt.state as { realm?: { players?: Record<string, unknown>; leases?: unknown } }).realm;
    for (const p of rt.state.players) {
      const room = playerRoom(rt.id, p.id);
      if (!io.sockets.adapter.rooms.get(room)?.size) {
        heldSlice.delete(room);
        sliceRefs.delete(room);
        continue;
      }
      // Fast path: the same objects as last time and no patch touching the slice — nothing changed.
      const refs = { player: realm?.players?.[p.id], leases: realm?.leases };
      const last = sliceRefs.get(room);
      sliceRefs.set(room, refs);
      if (
        last &&
        heldSlice.has(room) &&
        last.player === refs.player &&
        last.leases === refs.leases &&
        !touchesSlice(patches, p.id)
      )
        continue;
      const own = ownSlice(rt, p.id);
      const held = heldSlice.get(room);
      heldSlice.set(room, own);
      if (held === undefined || !privatePartStale(held, p.id, patches, own)) continue;
      out.set(room, hub.engine.view(rt.state, p.id as never));
    }
    return out;
  }

  async function chatHistory(worldId: string, playerId: string | null): Promise<ChatMessage[]> {
    const rows = await db.prisma.chatMessage.findMany({
      where: {
        worldId,
        deletedAt: null,
        OR: [
          { toPlayerId: null },
          ...(playerId ? [{ toPlayerId: playerId }, { fromPlayerId: playerId }] : []),
        ],
      },
      orderBy: { id: 'desc' },
      take: 100,
      include: { fromUser: { select: { username: true } } },
    });
    return rows.reverse().map(toChat);
  }

  function on<S extends z.ZodType, R extends object>(
    socket: BkeSocket,
    event: keyof ClientToServerEvents,
    schema: S,
    handler: (msg: z.infer<S>) => Promise<Ack<R>>,
  ) {
    (socket as unknown as Socket).on(event, async (raw: unknown, ack: unknown) => {
      const reply = (r: Ack<R> | ReturnType<typeof err>) => {
        if (typeof ack === 'function') ack(r);
        else if (!r.ok) socket.emit('error', r.error);
      };
      if (!limiter.take(socket.id)) return reply(err('socket/rate_limited'));
      let size = 0;
      try {
        size = JSON.stringify(raw ?? null).length;
      } catch {
        return reply(err('socket/invalid', { reason: 'unserializable' }));
      }
      if (size > MAX_SOCKET_MESSAGE_BYTES)
        return reply(err('socket/invalid', { reason: 'too_large', limit: MAX_SOCKET_MESSAGE_BYTES }));
      const parsed = schema.safeParse(raw);
      if (!parsed.success)
        return reply(
          err('socket/invalid', {
            issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          }),
        );
      try {
        reply(await handler(parsed.data));
      } catch (e) {
        app.log.error({ err: e, event }, 'socket handler failed');
        reply(err('socket/internal'));
      }
    });
  }

  io.on('connection', async (raw) => {
    const socket = raw as unknown as BkeSocket;
    const token = parseCookies(socket.handshake.headers.cookie)[SESSION_COOKIE];
    // Handlers are registered at once (messages sent before they exist would be dropped); each
    // awaits the session lookup.
    const userP: Promise<SessionUser | null> = userForToken(db, token)
      .then((u) => (u?.bannedUntil && u.bannedUntil.getTime() > Date.now() ? null : u))
      .catch(() => null);
    socket.data = { user: null, worlds: new Map() };
    socket.on('disconnect', () => limiter.forget(socket.id));

    on(socket, 'world/subscribe', subscribeSchema, async (msg): Promise<Ack<SubscribeResult>> => {
      const user = await userP;
      const rt = await hub.get(msg.worldId);
      if (!rt) return err('world/not_found');
      const seat = user ? await hub.activeSeat(msg.worldId, user.id) : null;
      const playerId = seat?.playerId ?? null;
      // Inside the queue: no patch can slip between the catch-up we send and joining the room.
      return rt.run(async () => {
        // Another process may have moved the world on since this one last heard (a client that
        // comes here after its process died must not be handed an older version than it held).
        await rt.catchUp();
        await socket.join(worldRoom(rt.id));
        if (playerId) await socket.join(playerRoom(rt.id, playerId));
        socket.data.worlds.set(rt.id, playerId);
        const v = msg.version;
        let sync: SubscribeResult['sync'];
        // A player's private part (its realm) is not in the stored public patches: when it differs
        // from the public one, a player catching up gets a full view instead.
        const own = playerId ? ownSlice(rt, playerId) : null;
        const privateDiffers =
          playerId !== null &&
          own !== null &&
          canonical(own) !==
            canonical(privateSlice((hub.engine.view(rt.state, null) as { realm?: unknown }).realm, playerId));
        if (playerId && own) {
          heldSlice.set(playerRoom(rt.id, playerId), own);
          sliceRefs.delete(playerRoom(rt.id, playerId));
        }
        if (v !== undefined && v <= rt.version && rt.version - v <= MAX_PATCH_GAP && !privateDiffers) {
          const rows = await readOrders(db, rt.id, v, rt.version);
          const patches: PatchMessage[] = rows.map((r) => ({
            worldId: rt.id,
            from: r.seq - 1,
            to: r.seq,
            ops: r.patch as PatchMessage['ops'],
            events: r.events as PatchMessage['events'],
          }));
          sync = { kind: 'patches', patches };
        } else {
          sync = { kind: 'view', version: rt.version, view: hub.engine.view(rt.state, playerId as never) };
        }
        const legal = playerId
          ? (hub.engine.legalOrders(rt.state, playerId as never) as { type: string }[])
          : [];
        return {
          ok: true,
          role: playerId ? 'player' : 'spectator',
          playerId,
          sync,
          status: await statusOf(rt),
          legal,
          chat: await chatHistory(rt.id, playerId),
          recent: await recentEvents(db, rt.id, rt.version, rt.state.turn, RECENT_EVENTS),
        };
      });
    });

    on(socket, 'world/unsubscribe', unsubscribeSchema, async (msg) => {
      const player = socket.data.worlds.get(msg.worldId);
      await socket.leave(worldRoom(msg.worldId));
      if (player) await socket.leave(playerRoom(msg.worldId, player));
      socket.data.worlds.delete(msg.worldId);
      return { ok: true };
    });

    on(socket, 'world/order', orderMessageSchema, async (msg) => {
      const received = performance.now();
      const count = (outcome: OrderOutcome) => {
        metrics.orders.inc({ outcome });
        metrics.orderAck.observe({ outcome }, (performance.now() - received) / 1000);
      };
      try {
        const r = await placeOrder(msg);
        count(!r.ok ? 'refused' : r.deferred ? 'deferred' : 'accepted');
        return r;
      } catch (e) {
        count('failed');
        throw e;
      }
    });

    async function placeOrder(msg: z.infer<typeof orderMessageSchema>) {
      const user = await userP;
      if (!user) return err('auth/required');
      if (!socket.data.worlds.has(msg.worldId)) return err('world/not_subscribed');
      const playerId = socket.data.worlds.get(msg.worldId);
      if (!playerId) return err('auth/forbidden', { reason: 'spectator' });
      const r = await hub.order(msg.worldId, playerId, user.id, msg.version, msg.order);
      if (!r.ok && r.error.code === 'sync/stale') {
        const rt = await hub.get(msg.worldId);
        if (rt)
          socket.emit('world/view', {
            worldId: rt.id,
            version: rt.version,
            view: hub.engine.view(rt.state, playerId as never),
          });
      }
      return r.ok ? { ok: true as const, version: r.version, deferred: r.deferred } : r;
    }

    on(socket, 'world/planCost', planCostRequestSchema, async (msg): Promise<Ack<PlanCostResult>> => {
      if (!socket.data.worlds.has(msg.worldId)) return err('world/not_subscribed');
      const playerId = socket.data.worlds.get(msg.worldId);
      if (!playerId) return err('auth/forbidden', { reason: 'spectator' });
      const rt = await hub.get(msg.worldId);
      if (!rt) return err('world/not_found');
      const r = planCost(hub.engine, rt.state, playerId, msg.plan);
      if (!r.ok) {
        const { code, ...params } = r.error;
        return err(code, params);
      }
      return { ok: true, cost: r.cost };
    });

    on(socket, 'chat/send', chatSendSchema, async (msg) => {
      const user = await userP;
      if (!user) return err('auth/required');
      const { mutedUntil } = await db.prisma.user.findUniqueOrThrow({
        where: { id: user.id },
        select: { mutedUntil: true },
      });
      if (mutedUntil && mutedUntil.getTime() > Date.now())
        return err('chat/muted', { until: mutedUntil.toISOString() });
      if (!socket.data.worlds.has(msg.worldId)) return err('world/not_subscribed');
      const from = socket.data.worlds.get(msg.worldId) ?? null;
      const to = msg.to ?? null;
      if (to !== null) {
        if (!from) return err('auth/forbidden', { reason: 'spectator' });
        const seats = await hub.seats(msg.worldId);
        if (!seats.some((s) => s.playerId === to && !s.leftAt) || to === from)
          return err('chat/unknown_recipient', { to });
      }
      const row = await db.prisma.chatMessage.create({
        data: {
          worldId: msg.worldId,
          fromUserId: user.id,
          fromPlayerId: from,
          toPlayerId: to,
          body: msg.body,
        },
        include: { fromUser: { select: { username: true } } },
      });
      const message = toChat(row);
      deliverChat(io, message);
      return { ok: true, message };
    });

    const user = await userP;
    socket.data.user = user;
    // Every socket of an account, on every process, ends together when the account is banned.
    if (user) await socket.join(userRoom(user.id));
    socket.emit('hello', {
      serverVersion: SERVER_VERSION,
      serverTime: new Date().toISOString(),
      user: user ? { id: user.id, username: user.username, role: user.role } : null,
    });
  });
}

/** Sends a stored chat message to its readers on every process: the world, or the two players of a private one. */
export function deliverChat(io: Io, message: ChatMessage): void {
  const { worldId, to } = message;
  const from = message.from.playerId;
  if (to === null) io.to(worldRoom(worldId)).emit('chat/message', message);
  else
    io.to([playerRoom(worldId, to), ...(from ? [playerRoom(worldId, from)] : [])]).emit(
      'chat/message',
      message,
    );
}

function toChat(row: {
  id: bigint;
  worldId: string;
  fromUserId: string;
  fromPlayerId: string | null;
  toPlayerId: string | null;
  body: string;
  createdAt: Date;
  fromUser: { username: string };
}): ChatMessage {
  return {
    id: row.id.toString(),
    worldId: row.worldId,
    from: { userId: row.fromUserId, username: row.fromUser.username, playerId: row.fromPlayerId },
    to: row.toPlayerId,
    body: row.body,
    at: row.createdAt.toISOString(),
  };
}
