/**
 * Socket.IO on the HTTP server Fastify owns: the live side of a world. Every inbound message is
 * rate-limited (per account, or per address for anonymous sockets, across all their sockets),
 * size-checked, refused when it holds control characters and parsed with its zod schema from
 * @bke/protocol before anything else; every answer is an acknowledgement `{ ok, … }` or
 * `{ ok: false, error: { code } }`, and a handler that throws answers `socket/internal` and logs.
 *
 * A socket is in its account's and its session's rooms (rooms.ts), so logging out, a password
 * change, a ban or an expired session ends it. Orders, chat and plan prices are checked against
 * the session and the seat in the database each time: a seat's rights end with the seat, and a
 * session's with the session, on every process, whatever the socket believed at subscribe.
 *
 * Each viewer receives its own messages of a world, made from what the engine says it may see
 * (worlds/viewer-patches.ts): a seat's sockets, in that seat's room, get its patches with its
 * legal orders; spectators share the spectators' patches. With several server processes each one
 * tells its own sockets about a world (`io.local`): every process holds its own copy, told of the
 * others' changes (cluster/world-changes.ts), and makes the same messages from it. Chat,
 * moderation notices and ended sockets go through the cluster adapter's rooms to every process.
 */

import type { PlayerId } from '@bke/engine';
import {
  type Ack,
  type ChatMessage,
  type ClientToServerEvents,
  CONTROL_CHARACTERS,
  chatSendSchema,
  controlCharacterPath,
  type ErrorCode,
  findControlCharacters,
  MAX_PATCH_GAP,
  MAX_SOCKET_MESSAGE_BYTES,
  orderMessageSchema,
  type PatchMessage,
  type PlanCostResult,
  planCostRequestSchema,
  RECENT_EVENTS,
  SESSION_COOKIE,
  type SubscribeResult,
  subscribeSchema,
  unsubscribeSchema,
  type ViewMessage,
  type WireError,
  type WorldStatusMessage,
} from '@bke/protocol';
import proxyAddr from '@fastify/proxy-addr';
import { parseCookie } from 'cookie';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import { RateLimiter } from '../auth/rate-limit.ts';
import { type SessionUser, userForToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { SERVER_VERSION } from '../http/health.ts';
import { type ProxyTrust, publicSite, sameOrigin } from '../http/origin.ts';
import { DEFAULT_LIMITS, type Limits } from '../limits.ts';
import { Metrics, type OrderOutcome } from '../metrics.ts';
import { afterAcknowledgement } from '../worlds/after-ack.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { planCost } from '../worlds/plan-cost.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { readOrders, recentEvents } from '../worlds/store.ts';
import { storedPatch, type Viewer } from '../worlds/viewer-patches.ts';
import { deliverChat, toChat } from './chat.ts';
import { playerRoom, sessionRoom, userRoom, worldRoom } from './rooms.ts';
import { SeatLegalOrders } from './seat-legal-orders.ts';
import type { BkeSocket, Io } from './typed-server.ts';

const KNOWN_EVENTS = new Set([
  'world/subscribe',
  'world/unsubscribe',
  'world/order',
  'world/planCost',
  'chat/send',
]);
/**
 * The heartbeat: the server pings every PING_INTERVAL_MS and gives up on a socket that has not
 * answered within PING_TIMEOUT_MS; the client, which expects a ping within the sum of the two, gives
 * up on the server as quickly. One tiny packet each way per 4 s per socket is nothing beside patches.
 */
export const PING_INTERVAL_MS = 4000;
export const PING_TIMEOUT_MS = 5000;
/** Messages from this size on are sent compressed (permessage-deflate). */
export const COMPRESS_FROM_BYTES = 8 * 1024;
/**
 * A broadcast gives the event loop back after this long (between two viewers), so that the orders
 * waiting to be read are not held behind a turn end's messages to every seat.
 */
export const BROADCAST_SLICE_MS = 4;
/** How often a socket whose session lookup failed tries again. */
const REAUTH_MS = 2000;

const err = (code: ErrorCode, params: Record<string, unknown> = {}): { ok: false; error: WireError } => ({
  ok: false,
  error: { ...params, code },
});

/** Ends every socket opened with this session, wherever it is connected. */
export function endSessionSockets(io: Io, sessionId: string): void {
  io.in(sessionRoom(sessionId)).disconnectSockets(true);
}

export interface SocketOptions {
  limits?: Limits;
  /** Which proxies to believe about a client's address and the host it used (TRUST_PROXY, http/origin.ts). */
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
    // A lost connection is noticed within PING_INTERVAL_MS + PING_TIMEOUT_MS (9 s) on both sides,
    // instead of Socket.IO's 45 s: the client shows "offline" while players still watch the page.
    pingInterval: PING_INTERVAL_MS,
    pingTimeout: PING_TIMEOUT_MS,
    maxHttpBufferSize: 64 * 1024,
    transports: ['websocket', 'polling'],
    // permessage-deflate for the big messages only (full views, the rare patch of a turn end).
    // ws honours the threshold only without context takeover; with it, every message was
    // compressed, and zlib became the largest item of the server's CPU per order. Without context
    // takeover small orders from clients are not compressed either (a client honours its own
    // threshold then). Below 8 KB a message fits in the first round trip of a fresh connection
    // anyway (about 14 KB).
    perMessageDeflate: {
      threshold: COMPRESS_FROM_BYTES,
      serverNoContextTakeover: true,
      clientNoContextTakeover: true,
    },
    allowRequest: (req, cb) => cb(null, sameOrigin(req.headers.origin, publicSite(req, trust))),
  });
  if (db && hub)
    wireWorlds(app, io, db, hub, options.limits ?? DEFAULT_LIMITS, trust, options.metrics ?? new Metrics());
  else
    io.on('connection', (socket) => {
      socket.emit('hello', { serverVersion: SERVER_VERSION, serverTime: new Date().toISOString() });
    });
  return io;
}

/** Per-process counts of open sockets per key, for the caps. */
class Counter {
  private readonly n = new Map<string, number>();
  get(k: string) {
    return this.n.get(k) ?? 0;
  }
  add(k: string, d: 1 | -1) {
    const v = this.get(k) + d;
    if (v <= 0) this.n.delete(k);
    else this.n.set(k, v);
  }
}

function wireWorlds(
  app: FastifyInstance,
  io: Io,
  db: Database,
  hub: WorldHub,
  limits: Limits,
  trust: ProxyTrust,
  metrics: Metrics,
) {
  const limiter = new RateLimiter(limits.socketEvents.burst, limits.socketEvents.perSecond);
  const perAddress = new Counter();
  const perAccount = new Counter();
  const log = (msg: string, data: object) => app.log.warn(data, msg);
  /**
   * Per world, the versions its viewers are due while a broadcast waits to start. A commit's
   * messages go out just after its acknowledgement, not before it: the sender's answer waits for
   * the durable commit only, not for every viewer's patch and legal orders (the work of a turn end).
   * Commits that come before the broadcast started are sent together, in order, each viewer's legal
   * orders computed once for them all. The world's status rides in the same messages (one message
   * per viewer and order, not two): each status goes with the patch of the version it was taken at.
   * A status taken while a broadcast is due or under way waits for it, so that no viewer sees an
   * older status after a newer one; `from` is null when only statuses are due.
   */
  const due = new Map<string, { from: number | null; to: number; statuses: Promise<WorldStatusMessage>[] }>();
  /** Worlds whose broadcast is under way (the next one starts when it is done). */
  const sending = new Set<string>();
  const broadcastSoon = (
    rt: WorldRuntime,
    from: number | null,
    status: Promise<WorldStatusMessage> | null,
  ): void => {
    const pending = due.get(rt.id);
    // Only committed versions are sent: `to` is the version of the latest commit told here (a
    // moderator's transaction may have moved the world in memory before it commits).
    if (pending) {
      if (from !== null) {
        pending.from ??= from;
        pending.to = rt.version;
      }
      if (status) pending.statuses.push(status);
      return;
    }
    due.set(rt.id, { from, to: from === null ? -1 : rt.version, statuses: status ? [status] : [] });
    if (!sending.has(rt.id)) setImmediate(() => startBroadcast(rt));
  };
  /** The world's status to every viewer: at once, or after the broadcast due or under way. */
  const sendStatus = (rt: WorldRuntime, status: Promise<WorldStatusMessage>): void => {
    if (due.has(rt.id) || sending.has(rt.id)) {
      broadcastSoon(rt, null, status);
      return;
    }
    status
      .then((s) => io.local.to(worldRoom(rt.id)).emit('world/status', s))
      .catch((e) => log('world status not sent', { world: rt.id, err: String(e) }));
  };
  /**
   * Sends a world's due versions viewer by viewer (the spectators, then each seat), giving the
   * event loop back whenever BROADCAST_SLICE_MS have gone: a turn end's patches and legal orders for
   * every seat would otherwise run as one long task, and the orders that arrive meanwhile, of any
   * world, would wait for all of it before they are even read. A cheap broadcast still goes out in
   * one go. Each viewer receives its messages in version order: a world's next broadcast starts only
   * after this one reached every viewer.
   */
  function startBroadcast(rt: WorldRuntime): void {
    const range = due.get(rt.id);
    if (!range) return;
    due.delete(rt.id);
    sending.add(rt.id);
    const done = (): void => {
      sending.delete(rt.id);
      if (due.has(rt.id)) setImmediate(() => startBroadcast(rt));
    };
    if (range.statuses.length === 0) {
      sendRange(rt, range.from, range.to, [], done);
      return;
    }
    // A status's head is taken at its commit and its ready flags after the acknowledgement (with
    // early resolution they need no query); one that failed is left out, as a lost message would be.
    void Promise.all(
      range.statuses.map((p) =>
        p.catch((e: unknown) => {
          log('world status not sent', { world: rt.id, err: String(e) });
          return null;
        }),
      ),
    ).then((all) =>
      sendRange(
        rt,
        range.from,
        range.to,
        all.filter((s) => s !== null),
        done,
      ),
    );
  }

  /** Sends versions `from` → `to` (none when `from` is null or `to`) with `statuses`, then `done`. */
  function sendRange(
    rt: WorldRuntime,
    from: number | null,
    to: number,
    statuses: readonly WorldStatusMessage[],
    done: () => void,
  ): void {
    if (from === null || from === to) {
      for (const s of statuses) io.local.to(worldRoom(rt.id)).emit('world/status', s);
      done();
      return;
    }
    let steps: (() => void)[];
    try {
      steps = broadcastSteps(rt, from, to, statuses);
    } catch (e) {
      log('world patches not sent', { world: rt.id, err: String(e) });
      for (const s of statuses) io.local.to(worldRoom(rt.id)).emit('world/status', s);
      done();
      return;
    }
    let i = 0;
    const slice = (): void => {
      const began = performance.now();
      while (i < steps.length) {
        try {
          steps[i]!();
        } catch (e) {
          log('world patches not sent', { world: rt.id, err: String(e) });
        }
        i++;
        if (i < steps.length && performance.now() - began >= BROADCAST_SLICE_MS) {
          setImmediate(slice);
          return;
        }
      }
      done();
    };
    slice();
  }
  hub.events = {
    patches(rt, from, headChanged) {
      const status = headChanged ? statusAfterAck(rt) : null;
      if (rt.version !== from) broadcastSoon(rt, from, status);
      else if (status) sendStatus(rt, status); // the head moved, not the state
    },
    status(rt) {
      sendStatus(rt, statusAfterAck(rt));
    },
    seatEnded(worldId, playerId) {
      // The seat's sockets keep watching as spectators; what only the seat may see stops here.
      io.in(playerRoom(worldId, playerId)).socketsLeave(playerRoom(worldId, playerId));
    },
  };

  // The world's room is where a subscribe puts a socket and what an unsubscribe or a disconnect
  // takes it out of; the adapter's `rooms` are this process's sockets only, as the hub asks.
  hub.watched = (worldId) => (io.of('/').adapter.rooms.get(worldRoom(worldId))?.size ?? 0) > 0;

  /** Whether a socket of this process watches the world from no seat of `seatRooms`. */
  function hasSpectators(worldId: string, seatRooms: readonly string[]): boolean {
    const rooms = io.of('/').adapter.rooms;
    const watching = rooms.get(worldRoom(worldId));
    if (!watching) return false;
    const seated = seatRooms.map((r) => rooms.get(r)).filter((r) => r !== undefined);
    for (const sid of watching) if (!seated.some((r) => r.has(sid))) return true;
    return false;
  }

  /** Each viewer's messages of a world from version `from` to `to`, one step per viewer. */
  function broadcastSteps(
    rt: WorldRuntime,
    from: number,
    to: number,
    statuses: readonly WorldStatusMessage[],
  ): (() => void)[] {
    const seats = rt.state.players.map((p) => p.id);
    const seatRooms = seats.map((p) => playerRoom(rt.id, p));
    const sendTo = (sockets: ReturnType<Io['local']['to']>, viewer: Viewer) =>
      sendPatches(
        rt,
        from,
        to,
        viewer,
        statuses,
        (m) => sockets.emit('world/patch', m),
        (v) => sockets.emit('world/view', v),
      );
    const steps = [
      () => {
        // Spectators: the world's room but no seat's room; they all share one set of messages,
        // made and encoded only when there is one (an emit encodes its message before it looks
        // for sockets).
        if (!hasSpectators(rt.id, seatRooms)) return;
        sendTo(io.local.to(worldRoom(rt.id)).except(seatRooms), null);
      },
    ];
    for (const seat of seats)
      steps.push(() => {
        const room = playerRoom(rt.id, seat);
        if (!io.of('/').adapter.rooms.get(room)?.size) {
          legal.forget(room);
          return;
        }
        sendTo(io.local.to(room), seat);
      });
    return steps;
  }

  /** The world's status but its ready flags, which the database holds. */
  function headOf(rt: WorldRuntime): Omit<WorldStatusMessage, 'ready'> {
    return {
      worldId: rt.id,
      version: rt.version,
      status: rt.settings.status,
      stepKey: rt.head.stepKey,
      deadlineAt: rt.head.deadlineAt?.toISOString() ?? null,
      waitingFor: rt.waitingFor(),
      pauseReason: rt.settings.status === 'paused' ? rt.settings.pauseReason : null,
    };
  }

  /** `head` with the ready flags of its step, read now. */
  async function withReady(
    rt: WorldRuntime,
    head: Omit<WorldStatusMessage, 'ready'>,
  ): Promise<WorldStatusMessage> {
    return { ...head, ready: await hub.ready(rt, head.stepKey) };
  }

  function statusOf(rt: WorldRuntime): Promise<WorldStatusMessage> {
    return withReady(rt, headOf(rt));
  }

  /**
   * The head as this change left it, its ready flags read after the acknowledgement of the order
   * that moved it (its sender's answer comes before any query or message of the commit's).
   */
  function statusAfterAck(rt: WorldRuntime): Promise<WorldStatusMessage> {
    const head = headOf(rt);
    return afterAcknowledgement().then(() => withReady(rt, head));
  }

  /** Each seat's legal orders: listed only when they can have changed, sent when they did. */
  const legal = new SeatLegalOrders(hub.engine);

  /**
   * A viewer's messages for versions `from` → `to`: its own patches, the last carrying a seat's
   * legal orders when they changed, each status with the first patch that reaches its version; a
   * full view (with them, and the latest status) when the world's memory of patches does not reach
   * back that far (a long catch-up from another process).
   */
  function sendPatches(
    rt: WorldRuntime,
    from: number,
    to: number,
    viewer: Viewer,
    statuses: readonly WorldStatusMessage[],
    patch: (m: PatchMessage) => void,
    view: (v: ViewMessage) => void,
  ): void {
    const patches = rt.viewers.patches(from, to, viewer);
    const state = rt.viewers.stateAt(to) ?? rt.state;
    const seat = viewer ? legal.forRoom(rt, state, viewer, playerRoom(rt.id, viewer)) : null;
    if (!patches) {
      view({
        worldId: rt.id,
        version: to,
        view: rt.viewers.view(to, viewer) ?? hub.engine.view(state, viewer),
        ...(seat ? { legal: seat.orders } : {}),
        ...(statuses.length > 0 ? { status: statuses[statuses.length - 1] } : {}),
      });
      return;
    }
    const last = patches.length - 1;
    const statusAt = new Map<number, WorldStatusMessage>();
    for (const s of statuses) {
      const i = patches.findIndex((p) => p.to >= s.version);
      statusAt.set(i === -1 ? last : i, s); // a later status of the same patch replaces an earlier one
    }
    for (const [i, p] of patches.entries()) {
      const legalOrders = i === last && seat?.changed ? seat.orders : undefined;
      const status = statusAt.get(i);
      patch(
        legalOrders || status
          ? { ...p, ...(legalOrders ? { legal: legalOrders } : {}), ...(status ? { status } : {}) }
          : p,
      );
    }
  }

  /**
   * `viewer`'s patches from `from` to the world's version, or undefined when only a full view
   * will do: a seat's come from memory alone; spectators may also have the log's public patches.
   */
  async function catchUpPatches(
    rt: WorldRuntime,
    from: number,
    viewer: Viewer,
  ): Promise<PatchMessage[] | undefined> {
    const held = rt.viewers.patches(from, rt.version, viewer);
    if (held || viewer !== null) return held;
    const rows = await readOrders(db, rt.id, from, rt.version);
    return rows.map((r) => storedPatch(hub.engine, rt.id, r));
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

  /**
   * The session and the seat as the database has them now, for an order, a chat line or a plan
   * price: one query. Null when the session is gone (logged out, expired, purged).
   */
  async function rightsNow(sessionId: string, worldId: string, playerId: string | null) {
    const rows = await db.sql<{
      user_id: string;
      banned_until: Date | null;
      muted_until: Date | null;
      seat_user: string | null;
    }>(
      `SELECT u.id AS user_id, u.banned_until, u.muted_until,
              (SELECT ws.user_id FROM world_seats ws
                WHERE ws.world_id = $2::uuid AND ws.player_id = $3 AND ws.left_at IS NULL) AS seat_user
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [sessionId, worldId, playerId ?? ''],
      'bke_socket_rights',
    );
    return rows[0] ?? null;
  }

  type Rights = { user: SessionUser; playerId: string | null; mutedUntil: Date | null };
  /**
   * The account and seat `socket` may act as in `worldId` now, or the refusal to answer with. A
   * socket whose session ended is disconnected; one whose seat ended becomes a spectator there.
   */
  async function rights(socket: BkeSocket, worldId: string): Promise<Rights | ReturnType<typeof err>> {
    const user = await signedIn(socket);
    if (!user) return err(socket.data.pendingToken ? 'auth/unavailable' : 'auth/required');
    if (!socket.data.worlds.has(worldId)) return err('world/not_subscribed');
    const playerId = socket.data.worlds.get(worldId) ?? null;
    const now = await rightsNow(user.sessionId, worldId, playerId);
    // The answer leaves first, then the socket is closed.
    if (!now || now.user_id !== user.id) {
      setImmediate(() => socket.disconnect(true));
      return err('auth/required');
    }
    if (now.banned_until && now.banned_until.getTime() > Date.now()) {
      setImmediate(() => socket.disconnect(true));
      return err('auth/banned', { until: now.banned_until.toISOString() });
    }
    if (playerId && now.seat_user !== user.id) {
      socket.data.worlds.set(worldId, null);
      await socket.leave(playerRoom(worldId, playerId));
      return err('world/not_seated');
    }
    return { user, playerId, mutedUntil: now.muted_until };
  }

  /** The socket's account; a lookup that failed for a passing reason is tried again first. */
  async function signedIn(socket: BkeSocket): Promise<SessionUser | null> {
    if (!socket.data.user && socket.data.pendingToken) await retryAuthentication(socket);
    return socket.data.user;
  }

  /**
   * Looks the handshake's session up: 'done' (signed in, or anonymous), 'pending' (the database did
   * not answer; try again later) or 'too_many' (the account has its most sockets open already).
   */
  async function authenticate(socket: BkeSocket): Promise<'done' | 'pending' | 'too_many'> {
    const token = socket.data.pendingToken;
    if (!token) return 'done';
    let user: SessionUser | null;
    try {
      user = await userForToken(db, token);
    } catch (e) {
      log('session lookup failed; the socket will try again', { err: String(e) });
      return 'pending';
    }
    if (socket.data.pendingToken === null) return 'done'; // another attempt got there first
    socket.data.pendingToken = null;
    if (!user || (user.bannedUntil && user.bannedUntil.getTime() > Date.now())) return 'done';
    if (perAccount.get(user.id) >= limits.socketsPerAccount) return 'too_many';
    socket.data.user = user;
    return 'done';
  }

  /** Counts a signed-in socket against its account and puts it in its account's and session's rooms. */
  async function admit(socket: BkeSocket): Promise<void> {
    const user = socket.data.user;
    if (!user) return;
    perAccount.add(user.id, 1);
    await socket.join([userRoom(user.id), sessionRoom(user.sessionId)]);
  }

  /** A connected socket's session lookup, again; greets it anew when it succeeds. */
  async function retryAuthentication(socket: BkeSocket): Promise<void> {
    const r = await authenticate(socket);
    if (r === 'too_many') {
      socket.emit('error', { code: 'socket/too_many', per: 'account', limit: limits.socketsPerAccount });
      socket.disconnect(true);
    } else if (r === 'done' && socket.data.user) {
      await admit(socket);
      greet(socket);
    }
  }

  function greet(socket: BkeSocket): void {
    const user = socket.data.user;
    socket.emit('hello', {
      serverVersion: SERVER_VERSION,
      serverTime: new Date().toISOString(),
      user: user ? { id: user.id, username: user.username, role: user.role } : null,
      ...(socket.data.pendingToken ? { auth: 'unavailable' as const } : {}),
    });
  }

  const limiterKey = (socket: BkeSocket) =>
    socket.data.user ? `u:${socket.data.user.id}` : `a:${socket.data.address}`;

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
      try {
        if (!limiter.take(limiterKey(socket))) return reply(err('socket/rate_limited'));
        let size = 0;
        try {
          size = JSON.stringify(raw ?? null).length;
        } catch {
          return reply(err('socket/invalid', { reason: 'unserializable' }));
        }
        if (size > MAX_SOCKET_MESSAGE_BYTES)
          return reply(err('socket/invalid', { reason: 'too_large', limit: MAX_SOCKET_MESSAGE_BYTES }));
        const control = findControlCharacters(raw);
        if (control !== null) return reply(err(CONTROL_CHARACTERS, { path: control }));
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          const path = controlCharacterPath(parsed.error);
          if (path !== null) return reply(err(CONTROL_CHARACTERS, { path }));
          const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
          // An order the engine's schema refuses is the engine's refusal, as if the engine had read it.
          const inOrder = parsed.error.issues.every((i) => i.path[0] === 'order');
          return reply(
            err(event === 'world/order' && inOrder ? 'order/invalid' : 'socket/invalid', { issues }),
          );
        }
        reply(await handler(parsed.data));
      } catch (e) {
        app.log.error({ err: e, event }, 'socket handler failed');
        reply(err('socket/internal'));
      }
    });
  }

  const refusal = (per: 'address' | 'account', limit: number) =>
    Object.assign(new Error('socket/too_many'), { data: { code: 'socket/too_many', per, limit } });

  // Before a socket is let in: its address and the caps, and its session (so that a socket is
  // counted against its account before it is admitted).
  io.use((raw, next) => {
    const socket = raw as unknown as BkeSocket;
    const admission = async () => {
      const address = proxyAddr(socket.request, trust);
      if (perAddress.get(address) >= limits.socketsPerAddress)
        return refusal('address', limits.socketsPerAddress);
      let token: string | undefined;
      try {
        token = parseCookie(socket.handshake.headers.cookie ?? '')[SESSION_COOKIE];
      } catch {
        token = undefined; // an unreadable Cookie header is no session
      }
      socket.data = { user: null, pendingToken: token ?? null, address, worlds: new Map() };
      if ((await authenticate(socket)) === 'too_many') return refusal('account', limits.socketsPerAccount);
      return undefined;
    };
    admission().then(
      (refused) => next(refused),
      (e) => {
        log('socket admission failed', { err: String(e) });
        next(Object.assign(new Error('socket/internal'), { data: { code: 'socket/internal' } }));
      },
    );
  });

  io.on('connection', (raw) => {
    const socket = raw as unknown as BkeSocket;
    try {
      connected(socket);
    } catch (e) {
      log('socket set-up failed', { err: String(e) });
      socket.disconnect(true);
    }
  });

  function connected(socket: BkeSocket): void {
    perAddress.add(socket.data.address, 1);
    let retry: NodeJS.Timeout | undefined;
    socket.on('disconnect', () => {
      clearTimeout(retry);
      perAddress.add(socket.data.address, -1);
      if (socket.data.user) perAccount.add(socket.data.user.id, -1);
    });

    // Events nobody handles are answered too, so that every message gets a typed answer.
    socket.onAny((event: string, ...args: unknown[]) => {
      if (KNOWN_EVENTS.has(event)) return;
      const ack = args[args.length - 1];
      const refusal: WireError = { code: 'socket/unknown_event', event: String(event).slice(0, 40) };
      if (typeof ack === 'function') ack({ ok: false, error: refusal });
      else socket.emit('error', refusal);
    });

    on(socket, 'world/subscribe', subscribeSchema, async (msg): Promise<Ack<SubscribeResult>> => {
      const user = await signedIn(socket);
      const rt = await hub.get(msg.worldId);
      if (!rt) return err('world/not_found');
      const seat = user ? await hub.activeSeat(msg.worldId, user.id) : null;
      const playerId = (seat?.playerId ?? null) as PlayerId | null;
      // Inside the queue: no patch can slip between the catch-up we send and joining the room.
      return rt.run(async () => {
        // Another process may have moved the world on since this one last heard (a client that
        // comes here after its process died must not be handed an older version than it held).
        await rt.catchUp();
        const former = socket.data.worlds.get(rt.id);
        if (former && former !== playerId) await socket.leave(playerRoom(rt.id, former));
        await socket.join(worldRoom(rt.id));
        if (playerId) await socket.join(playerRoom(rt.id, playerId));
        socket.data.worlds.set(rt.id, playerId);
        const v = msg.version;
        const caughtUp =
          v !== undefined && v <= rt.version && rt.version - v <= MAX_PATCH_GAP
            ? await catchUpPatches(rt, v, playerId)
            : undefined;
        const sync: SubscribeResult['sync'] = caughtUp
          ? { kind: 'patches', patches: caughtUp }
          : { kind: 'view', version: rt.version, view: hub.engine.view(rt.state, playerId) };
        const orders = playerId ? legal.at(rt, rt.state, playerId) : [];
        return {
          ok: true,
          role: playerId ? 'player' : 'spectator',
          playerId,
          sync,
          status: await statusOf(rt),
          legal: orders,
          chat: await chatHistory(rt.id, playerId),
          recent: await recentEvents(db, rt.id, rt.version, rt.state.turn, RECENT_EVENTS, (events) =>
            hub.engine.eventsFor(events, playerId),
          ),
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
      const user = await signedIn(socket);
      if (!user) return err(socket.data.pendingToken ? 'auth/unavailable' : 'auth/required');
      if (!socket.data.worlds.has(msg.worldId)) return err('world/not_subscribed');
      const playerId = socket.data.worlds.get(msg.worldId);
      if (!playerId) return err('auth/forbidden', { reason: 'spectator' });
      // The session and the seat are checked inside the statement that stores the order (the hot
      // path pays no extra round trip); when they no longer hold, `rights` says which and acts.
      const r = await hub.order(msg.worldId, playerId, user.id, msg.version, msg.order, user.sessionId);
      if (!r.ok && r.error.code === 'auth/revoked') {
        const now = await rights(socket, msg.worldId);
        return 'ok' in now ? now : err('sync/stale');
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
          gap > 0 && gap <= limits.staleOrderPatches
            ? await catchUpPatches(rt, msg.version, seat)
            : undefined;
        if (!patches?.length) return err('sync/stale', { version: now });
        // The last carries the legal orders: the live patches they stand in for may come after this
        // answer, and the client drops those it has.
        const last = { ...patches[patches.length - 1]!, legal: legal.at(rt, rt.state, seat) };
        return err('sync/stale', { version: now, patches: [...patches.slice(0, -1), last] });
      });
    }

    on(socket, 'world/planCost', planCostRequestSchema, async (msg): Promise<Ack<PlanCostResult>> => {
      if (!socket.data.worlds.has(msg.worldId)) return err('world/not_subscribed');
      if (!socket.data.worlds.get(msg.worldId)) return err('auth/forbidden', { reason: 'spectator' });
      const r0 = await rights(socket, msg.worldId);
      if ('ok' in r0) return r0;
      const { playerId } = r0;
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
      const r0 = await rights(socket, msg.worldId);
      if ('ok' in r0) return r0;
      const { user, playerId: from, mutedUntil } = r0;
      if (mutedUntil && mutedUntil.getTime() > Date.now())
        return err('chat/muted', { until: mutedUntil.toISOString() });
      const to = msg.to ?? null;
      if (to !== null) {
        if (!from) return err('auth/forbidden', { reason: 'spectator' });
        const seats = await hub.seats(msg.worldId);
        if (!seats.some((s) => s.playerId === to && !s.leftAt) || to === from)
          return err('chat/unknown_recipient', { to });
      }
      // Counted in the database, so that every process and every socket of the account share it.
      const [recent] = await db.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM chat_messages
          WHERE from_user_id = $1::uuid AND created_at > now() - interval '1 minute'`,
        [user.id],
        'bke_chat_recent',
      );
      if ((recent?.n ?? 0) >= limits.chatPerMinute)
        return err('chat/too_fast', { limit: limits.chatPerMinute });
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

    if (socket.data.user) void admit(socket).catch((e) => log('socket rooms not joined', { err: String(e) }));
    greet(socket);
    if (socket.data.pendingToken) {
      socket.emit('error', { code: 'auth/unavailable' });
      const again = () => {
        retry = setTimeout(() => {
          retryAuthentication(socket)
            .catch((e) => log('session lookup failed again', { err: String(e) }))
            .finally(() => {
              if (socket.connected && socket.data.pendingToken) again();
            });
        }, REAUTH_MS);
      };
      again();
    }
  }
}
