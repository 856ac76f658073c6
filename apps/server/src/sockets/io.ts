/**
 * Socket.IO on the HTTP server Fastify owns: the live side of a world. The pieces, each in its
 * own file: letting a socket in (admission.ts), the gate every inbound message passes
 * (inbound.ts), what a socket may do now (rights.ts), one handler per event with its schema
 * (handlers/), and each viewer's messages after a commit (broadcaster.ts). A socket is in its
 * account's and its session's rooms (rooms.ts), so logging out, a password change, a ban or an
 * expired session ends it. Chat, moderation notices and ended sockets go through the cluster
 * adapter's rooms to every process.
 */

import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { z } from 'zod';
import type { ClusterLink } from '../cluster/adapter.ts';
import type { Database } from '../db/database.ts';
import { SERVER_VERSION } from '../http/health.ts';
import { type ProxyTrust, publicSite, sameOrigin } from '../http/origin.ts';
import { DEFAULT_LIMITS, type Limits } from '../limits.ts';
import { Metrics } from '../metrics.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { SocketEventLimit } from '../rate-limit/socket-events.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { Admission } from './admission.ts';
import { Broadcaster } from './broadcaster.ts';
import type { SocketContext, SocketHandler } from './context.ts';
import { HANDLERS, KNOWN_EVENTS } from './handlers/table.ts';
import { listen, refuseUnknownEvents } from './inbound.ts';
import { ResyncParts } from './resync-parts.ts';
import { playerRoom, sessionRoom, worldRoom } from './rooms.ts';
import { SeatLegalOrders } from './seat-legal-orders.ts';
import type { BkeSocket, Io } from './typed-server.ts';
import { WorldStatus } from './world-status.ts';

/**
 * The heartbeat: the server pings every PING_INTERVAL_MS and gives up on a socket that has not
 * answered within PING_TIMEOUT_MS; the client, which expects a ping within the sum of the two, gives
 * up on the server as quickly. One tiny packet each way per 4 s per socket is nothing beside patches.
 */
const PING_INTERVAL_MS = 4000;
const PING_TIMEOUT_MS = 5000;

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

/**
 * The Socket.IO server on Fastify's HTTP server, taking no event yet (`attachSockets` wires them):
 * made first, so that the worlds can ask it which of them a socket of this process watches.
 */
export function openSockets(app: FastifyInstance, trust: ProxyTrust = () => false): Io {
  return new Server(app.server, {
    serveClient: false,
    // A lost connection is noticed within PING_INTERVAL_MS + PING_TIMEOUT_MS (9 s) on both sides,
    // instead of Socket.IO's 45 s: the client shows "offline" while players still watch the page.
    pingInterval: PING_INTERVAL_MS,
    pingTimeout: PING_TIMEOUT_MS,
    maxHttpBufferSize: 64 * 1024,
    transports: ['websocket', 'polling'],
    // No permessage-deflate. ws keeps a zlib stream per socket for it (about 200 kB of resident
    // memory each once a large message went through, against some 20 kB for the rest of an idle
    // socket), and compresses each copy of a message for each socket anew. Full views are the only
    // large messages and most patches are a few hundred bytes; uncompressed they cost bytes, not
    // the process's memory and CPU per connected player.
    perMessageDeflate: false,
    allowRequest: (req, cb) => cb(null, sameOrigin(req.headers.origin, publicSite(req, trust))),
  });
}

/**
 * Whether a socket of this process watches the world: the world's room is where a subscribe puts a
 * socket and what an unsubscribe or a disconnect takes it out of; the adapter's `rooms` are this
 * process's sockets only.
 */
export const watchedHere = (io: Io, worldId: string): boolean =>
  (io.of('/').adapter.rooms.get(worldRoom(worldId))?.size ?? 0) > 0;

/**
 * Counts the socket limits with the site's other processes once the cluster adapter is installed
 * (it is installed after the handlers are wired); returns the stop of what that keeps running.
 */
export type LinkSocketLimits = (link: ClusterLink) => () => void;

export function attachSockets(
  app: FastifyInstance,
  io: Io,
  db?: Database,
  hub?: WorldHub,
  options: SocketOptions = {},
): LinkSocketLimits {
  const trust = options.trust ?? (() => false);
  if (db && hub)
    return wireWorlds(
      app,
      io,
      db,
      hub,
      options.limits ?? DEFAULT_LIMITS,
      trust,
      options.metrics ?? new Metrics(),
    );
  io.on('connection', (socket) => {
    socket.emit('hello', { serverVersion: SERVER_VERSION, serverTime: new Date().toISOString() });
  });
  return () => () => {};
}

function wireWorlds(
  app: FastifyInstance,
  io: Io,
  db: Database,
  hub: WorldHub,
  limits: Limits,
  trust: ProxyTrust,
  metrics: Metrics,
): LinkSocketLimits {
  const log = (msg: string, data: object) => app.log.warn(data, msg);
  const admission = new Admission(db, limits, trust, log);
  const legal = new SeatLegalOrders(hub.engine);
  const status = new WorldStatus(hub.seating);
  const chatLines = Limit.shared(db, { name: 'chat', points: limits.chatPerMinute, seconds: 60 }, log);
  const resync = new ResyncParts(db, hub);
  const ctx: SocketContext = {
    io,
    db,
    hub,
    limits,
    metrics,
    chatLines,
    admission,
    legal,
    status,
    resync,
    log,
  };
  const broadcaster = new Broadcaster(io, hub, legal, status, log);
  broadcaster.listen();
  hub.events.on('seatEnded', (worldId, playerId) => {
    // The seat's sockets keep watching as spectators; what only the seat may see stops here.
    io.in(playerRoom(worldId, playerId)).socketsLeave(playerRoom(worldId, playerId));
  });

  const limiter = new SocketEventLimit(
    windowOf('socket', limits.socketEvents.burst, limits.socketEvents.perSecond),
    (msg, data) => app.log.info(data, msg),
  );
  admission.install(io);
  io.on('connection', (raw) => {
    const socket = raw as unknown as BkeSocket;
    try {
      refuseUnknownEvents(socket, KNOWN_EVENTS);
      for (const h of HANDLERS) listen(ctx, limiter, app.log, socket, h as SocketHandler<z.ZodType, object>);
      admission.connected(socket);
    } catch (e) {
      log('socket set-up failed', { err: String(e) });
      socket.disconnect(true);
    }
  });
  return (link) => {
    admission.link(io, link);
    return limiter.link(io, link);
  };
}
